// The layers of src/ as a checked rule (`npm run lint:deps`, run by `npm test`).
// docs/DESIGN.md describes them; this file is what is enforced.
/** @type {import('dependency-cruiser').IConfiguration} */

// Top to bottom: a layer may import the layers below it, never one above it. A layer of several
// members (folders or files) keeps them apart: they do not import each other. Within one member
// files import each other freely, as long as they make no cycle.
const LAYERS = [
  { name: 'main', members: ['^src/main\\.ts$'] },
  { name: 'cli', members: ['^src/cli/'] },
  // Composition roots: the HTTP process, and each worker thread of a catalog-wide test run.
  { name: 'composition roots', members: ['^src/app\\.ts$', '^src/metatests/run-worker\\.ts$'] },
  { name: 'api', members: ['^src/api/'] },
  { name: 'services', members: ['^src/core\\.ts$', '^src/services\\.ts$'] },
  { name: 'metatests, transfer, timeline', members: ['^src/metatests/(?!run-worker\\.ts$)', '^src/transfer/', '^src/timeline/'] },
  { name: 'forms', members: ['^src/forms/'] },
  { name: 'events', members: ['^src/events/'] },
  { name: 'metrics', members: ['^src/metrics/'] },
  { name: 'structured', members: ['^src/structured/'] },
  { name: 'ingest', members: ['^src/ingest/'] },
  { name: 'search', members: ['^src/search/'] },
  { name: 'graph', members: ['^src/graph/'] },
  { name: 'read', members: ['^src/read/'] },
  { name: 'auth', members: ['^src/auth/'] },
  { name: 'store', members: ['^src/store/'] },
  { name: 'registry', members: ['^src/registry/'] },
  { name: 'urn', members: ['^src/urn/'] },
  { name: 'kernel', members: ['^src/(errors|json|yaml-list|config|idle-collection|heap-growth|limits|pace)\\.ts$'] },
];

const INSTEAD =
  'Move what both sides need down to the lower layer, or let the lower layer own an interface ' +
  '(a type, a callback) that the higher one implements and core.ts/app.ts wire together.';

function readable(pattern) {
  return pattern.replace(/^\^/, '').replace(/\$$/, '').replace(/\\\./g, '.').replace('(?!run-worker.ts$)', '');
}

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.members.flatMap((member) => {
    const above = LAYERS.slice(0, index).flatMap((l) => l.members);
    const siblings = layer.members.filter((m) => m !== member);
    const below = LAYERS.slice(index + 1).map((l) => l.members.map(readable).join(', '));
    if (above.length + siblings.length === 0) return [];
    return {
      name: `layer-${readable(member).replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}`,
      severity: 'error',
      comment:
        `${readable(member)} (layer "${layer.name}") may import only its own files and the layers below it: ` +
        `${below.join(' > ') || 'none'}. ${INSTEAD}`,
      from: { path: member },
      to: { path: [...above, ...siblings] },
    };
  }),
);

const ALL_MEMBERS = LAYERS.flatMap((l) => l.members);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Circular import (type-only imports count too). Move the shared type or function down to the ' +
        'lower of the two modules, or invert the dependency with an interface owned by the lower one.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'outside-the-layers',
      severity: 'error',
      comment:
        'This file is in no layer. Add its folder to LAYERS in .dependency-cruiser.cjs at the place ' +
        'its imports allow (and tell docs/DESIGN.md).',
      from: { path: '^src/', pathNot: ALL_MEMBERS },
      to: {},
    },
    {
      name: 'into-no-layer',
      severity: 'error',
      comment:
        'The imported file is in no layer. Add its folder to LAYERS in .dependency-cruiser.cjs at the ' +
        'place its imports allow (and tell docs/DESIGN.md).',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: ALL_MEMBERS },
    },
    {
      name: 'api-versions-apart',
      severity: 'error',
      comment:
        'A folder of src/api/ (v2, v3, gms, restli, graphql) imports only itself and the shared HTTP pieces in the src/api/ ' +
        'root. Move what two API versions share into a file in src/api/.',
      from: { path: '^src/api/([^/]+)/' },
      to: { path: '^src/api/[^/]+/', pathNot: '^src/api/$1/' },
    },
    {
      name: 'api-root-shared',
      severity: 'error',
      comment:
        'The files in the src/api/ root are the shared HTTP pieces; they do not import a version ' +
        'folder (v2, v3, gms, restli, graphql). Move what they need from there into the src/api/ root.',
      from: { path: '^src/api/[^/]+$' },
      to: { path: '^src/api/[^/]+/' },
    },
    {
      name: 'sqlite-behind-open',
      severity: 'error',
      comment:
        'Only src/store/open.ts chooses and opens a store; the SQLite implementation is private to ' +
        'src/store/sqlite/ (formerly src/store/sqlite*.ts). Open a store through src/store/open.ts ' +
        'and use the Store interface (src/store/store.ts).',
      from: { path: '^src/', pathNot: ['^src/store/open\\.ts$', '^src/store/sqlite(/|[^/]*\\.ts$)'] },
      to: { path: '^src/store/sqlite(/|[^/]*\\.ts$)' },
    },
    {
      name: 'postgres-behind-open',
      severity: 'error',
      comment:
        'Only src/store/open.ts chooses and opens a store; the PostgreSQL implementation is private to ' +
        'src/store/postgres/ (formerly src/store/postgres*.ts). Open a store through src/store/open.ts ' +
        'and use the Store interface (src/store/store.ts).',
      from: { path: '^src/', pathNot: ['^src/store/open\\.ts$', '^src/store/postgres(/|[^/]*\\.ts$)'] },
      to: { path: '^src/store/postgres(/|[^/]*\\.ts$)' },
    },
    {
      name: 'fastify-at-the-edge',
      severity: 'error',
      comment:
        'Only the HTTP layer (src/api/, src/app.ts, src/main.ts) knows Fastify. Elsewhere declare the ' +
        'small interface you need (e.g. a logger with info/error) and let app.ts pass Fastify\'s in.',
      from: { path: '^src/', pathNot: ['^src/api/', '^src/app\\.ts$', '^src/main\\.ts$'] },
      to: { path: '(^|/)node_modules/(fastify|@fastify/|fastify-)' },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      comment: 'src/ never imports test/ or bench/: move what both need into src/ (tests may import src/).',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve escapes every other rule here: fix the path.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports are dependencies too: a cycle of types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // node_modules may be a symlink (worktrees): keep the path through it, so rules see node_modules/<name>.
    preserveSymlinks: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
  },
};
