import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { drainOnSignal } from '../api/drain.js';
import { ConfigError, loadConfig, SERVE_OPTIONS } from '../config.js';
import { limitHeapGrowth } from '../heap-growth.js';
import { usage, usageError, wantsHelp, type CommandSpec, type OptionSpec } from './command.js';

export const SERVE = {
  name: 'serve',
  summary: "Serves the catalog over HTTP: DataHub's REST (OpenAPI, Rest.li) and GraphQL APIs, the web console, Swagger UI.",
  // The table loadConfig parses: what --help lists is what the parser accepts.
  options: Object.fromEntries(
    SERVE_OPTIONS.map((o): [string, OptionSpec] => [
      o.name,
      { type: 'string', value: o.value, help: o.help, env: o.env, ...(o.default === '' ? {} : { default: o.default }) },
    ]),
  ),
  notes: [
    'Creates the data dir and its catalog (or the PostgreSQL tables) at the first start, after checking that the port is free.',
    'Every option is also an environment variable; flags win over the environment.',
    'URNBASE_ADMIN_TOKEN (environment only): a secret of at least 32 characters accepted as an admin token.',
    'Once listening, serve prints its URLs (console, Swagger UI, GraphiQL, health) and where the admin token is on stderr;',
    'stdout carries the JSON log lines.',
  ],
} as const satisfies CommandSpec;

/**
 * `urnbase serve`. Resolves to undefined once the server listens (the process lives on); `stderr`
 * gets the start banner. Asked for help, it prints the usage on `stdout` and resolves to 0.
 */
export async function serveCommand(argv: string[], stdout: (text: string) => void, stderr: (line: string) => void): Promise<0 | undefined> {
  if (wantsHelp(SERVE.options, argv)) {
    stdout(usage(SERVE));
    return 0;
  }
  let config;
  try {
    config = loadConfig(argv);
  } catch (error) {
    throw error instanceof ConfigError ? usageError(SERVE.name, error.message) : error;
  }
  // Before anything is written (data dir, database, admin token): a port in use leaves no trace.
  await checkPortFree(config.host, config.port);
  // Loaded only now: `serve --help` and a bad option answer without loading the server.
  const { buildApp } = await import('../app.js');
  const { app, createdAdminTokenFile } = await buildApp({ ...config, collectWhenIdleMs: 2000 });
  if (!config.auth) app.log.warn('authentication is OFF (--auth false): anyone who can reach this port can read and write everything');
  drainOnSignal(app, config.shutdownGrace);
  await app.listen({ port: config.port, host: config.host });
  // 1.3× the live heap: after loading 100k datasets RSS was 190 MiB against 280-350 MiB, and the load ran faster (1,440 datasets/s against 920).
  // Only once listening: during the start the heap grows from nothing, and the cap cost it full
  // collections worth about 60 ms of CPU (of 700) before /health answered.
  limitHeapGrowth(30);
  const tokenFile = resolve(config.dataDir, 'admin.token');
  const lines = startBanner({
    host: config.host,
    port: (app.server.address() as AddressInfo).port,
    auth: config.auth,
    adminTokenFromEnv: config.adminToken !== undefined,
    inMemory: config.dataDir === ':memory:',
    tokenFile,
    created: createdAdminTokenFile !== undefined,
    fileExists: existsSync(tokenFile),
  });
  for (const line of lines) stderr(line);
  return undefined;
}

/**
 * Binds the port and lets it go again. Port 0 (any free port) cannot be taken. Between this check
 * and the server's own listen another process may take the port; then listen fails as before.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    const hint = code === 'EADDRINUSE' ? ': stop what listens there, or choose another port with --port (npm start -- --port 8081)' : '';
    throw new Error(`cannot listen on ${host}:${port}: ${why}${hint}; nothing was written`);
  } finally {
    await new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()));
  }
}

export interface BannerFacts {
  /** The address asked for (`--host`) and the port actually bound (`--port 0` picks one). */
  host: string;
  port: number;
  auth: boolean;
  /** URNBASE_ADMIN_TOKEN is set. */
  adminTokenFromEnv: boolean;
  /** The data dir is `:memory:`: there is nowhere to write a token file. */
  inMemory: boolean;
  /** `<data-dir>/admin.token`, absolute. */
  tokenFile: string;
  /** This start created the first admin token and wrote it there. */
  created: boolean;
  fileExists: boolean;
}

/**
 * What a person starting the server needs first, printed at every log level: where it answers,
 * where Swagger UI is, and where the admin token is (never the token itself).
 */
export function startBanner(facts: BannerFacts): string[] {
  const base = `http://${browsable(facts.host)}:${facts.port}`;
  const everywhere = facts.host === '0.0.0.0' || facts.host === '::' ? ` (listening on ${facts.host}: every interface)` : '';
  return [
    `urnbase serving ${base}${everywhere}`,
    `  console:  ${base}/`,
    `  API:      ${base}/openapi/swagger-ui/ (Swagger UI)`,
    `  GraphiQL: ${base}/graphiql/`,
    `  health:   ${base}/health`,
    tokenLine(facts),
  ];
}

function tokenLine(facts: BannerFacts): string {
  if (!facts.auth) return 'authentication is OFF (--auth false): anyone who can reach this port can read and write everything';
  if (facts.adminTokenFromEnv) return 'admin token: the value of URNBASE_ADMIN_TOKEN';
  if (facts.created) return `admin token: in ${facts.tokenFile} (created at this first start)`;
  if (facts.inMemory) return 'admin token: none (the data dir :memory: has nowhere to write one): set URNBASE_ADMIN_TOKEN';
  if (facts.fileExists) return `admin token: in ${facts.tokenFile} (written at the first start)`;
  return `admin token: no ${facts.tokenFile} (tokens exist already): use one you have, or create one with urnbase token create --name NAME --role admin`;
}

/** A wildcard address is not one to open in a browser: name this machine's loopback instead. */
function browsable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
