import { buildApp } from '../app.js';
import { parseWorkers } from '../config.js';
import { SYSTEM_ACTOR } from '../metatests/actions.js';
import type { TestInfo } from '../metatests/catalog.js';
import { DefinitionError, parseDefinition } from '../metatests/definition.js';
import { Registry } from '../registry/registry.js';
import type { Services } from '../services.js';
import type { StoreOptions } from '../store/open.js';
import { isUrn } from '../urn/urn.js';
import { ApiClient, CLIENT_OPTIONS, clientFor, fromYamlFile, upsertAspect } from './client.js';
import { groupUsage, parseOrHelp, subcommand, usageError, type CommandSpec } from './command.js';
import { count, ProgressBar, rate } from './progress.js';
import { requireCatalog, STORE_OPTIONS, storeOptions } from './store-options.js';
import { isRecord, jsonEqual } from '../json.js';
import { yamlItems } from '../yaml-list.js';

export const TESTS_UPSERT = {
  name: 'tests upsert',
  summary: 'Creates or updates metadata tests from a YAML file, through the HTTP API.',
  options: { file: { type: 'string', short: 'f', value: 'FILE', required: true, help: 'the YAML file' }, ...CLIENT_OPTIONS },
  notes: ['Prints created, updated, unchanged or the error per test; exit code 1 if any failed.'],
} as const satisfies CommandSpec;

export const TESTS_RUN = {
  name: 'tests run',
  summary: 'Evaluates metadata tests over every entity in scope, on the store directly (no server needed; one may keep serving it).',
  options: {
    test: { type: 'string', multiple: true, value: 'URN', help: 'run this test (scheduled or not); default: every active scheduled test' },
    push: { type: 'boolean', help: "write the results to the entities' testResults and run the tests' actions" },
    ...STORE_OPTIONS,
    workers: { type: 'string', value: 'N', help: 'worker threads: auto (one per core, at most 4) or 0-64', env: 'URNBASE_TESTS_WORKERS', default: 'auto' },
  },
  notes: [
    'A server may keep serving the same store meanwhile, on SQLite as on PostgreSQL: with --push its writes and',
    "the server's take turns, and the server answers the new results at once.",
    'The catalog must exist: a data dir or database without one is refused (exit 2).',
  ],
} as const satisfies CommandSpec;

export const TESTS_COMMANDS: readonly CommandSpec[] = [TESTS_UPSERT, TESTS_RUN];

const BASE = '/openapi/v2/entity/test';
const PREFIX = 'urn:li:test:';

/** One item of a tests YAML file: the test to write, or why it cannot be written. */
export type TestFromYaml = { urn: string; info: TestInfo } | { error: string };

/**
 * `urnbase tests …`. `progress` receives terminal redraws (`\r…`) during `tests run`; leave it
 * out off a terminal so nothing but the summary is printed.
 */
export async function testsCommand(argv: string[], out: (line: string) => void, progress?: (text: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  const spec = subcommand('tests', TESTS_COMMANDS, sub);
  if (spec === 'help') {
    out(groupUsage('tests', TESTS_COMMANDS));
    return 0;
  }
  if (spec === TESTS_UPSERT) {
    const parsed = parseOrHelp(TESTS_UPSERT, rest, out);
    if (!parsed) return 0;
    return upsert(clientFor(TESTS_UPSERT.name, parsed.values), parsed.values.file, out);
  }
  const parsed = parseOrHelp(TESTS_RUN, rest, out);
  if (!parsed) return 0;
  const { values } = parsed;
  const workers = values.workers ?? process.env.URNBASE_TESTS_WORKERS ?? 'auto';
  let testsWorkers: number;
  try {
    testsWorkers = parseWorkers(workers);
  } catch (error) {
    throw usageError(TESTS_RUN.name, `Invalid ${values.workers !== undefined ? '--workers' : 'URNBASE_TESTS_WORKERS'} ${JSON.stringify(workers)}: ${(error as Error).message}`);
  }
  const where = storeOptions(values, TESTS_RUN.name);
  await requireCatalog(where);
  return run(where, values.test, values.push === true, testsWorkers, out, progress);
}

/** Writes each valid test of the file; reports created, updated, unchanged or the error. */
async function upsert(client: ApiClient, file: string, out: (line: string) => void): Promise<number> {
  const items = fromYamlFile(file, (text) => testsFromYaml(text, file, Registry.load()), out);
  if (!items) return 1;
  let failed = 0;
  for (const item of items) {
    if ('error' in item) {
      // Invalid locally: nothing is sent for this item, the others still go.
      failed++;
      out(`error     ${item.error}`);
      continue;
    }
    const path = `${BASE}/${encodeURIComponent(item.urn)}/testInfo`;
    const outcome = await upsertAspect(client, path, item.urn, item.info, (stored) => jsonEqual(withoutMd5(stored as TestInfo), item.info));
    out(outcome.line);
    if (outcome.failed) failed++;
  }
  return failed > 0 ? 1 : 0;
}

/** The server stamps definition.md5; it is not part of what the file says. */
function withoutMd5(info: TestInfo): TestInfo {
  const { md5: _, ...definition } = info.definition;
  return { ...info, definition };
}

/**
 * Reads a tests YAML file: a list of `{id | urn, name, category, description?, status?, schedule?,
 * definition}`, the definition written as YAML (or as JSON text). Each item is checked on its own,
 * definitions with the same parser the server uses, so errors point at `file: [i].field`.
 */
export function testsFromYaml(text: string, file: string, registry: Registry): TestFromYaml[] {
  const items = yamlItems(text, file, 'tests');
  return items.map((item: unknown, i: number) => {
    try {
      return toTest(item, registry);
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      return { error: `${file}: [${i}]${error.field ? `.${error.field}` : ''}: ${error.message}` };
    }
  });
}

/** A problem in one item, at a field path relative to the item. */
class ItemError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const FIELDS = ['id', 'urn', 'name', 'category', 'description', 'status', 'schedule', 'definition'];

function toTest(item: unknown, registry: Registry): { urn: string; info: TestInfo } {
  const fail = (field: string, why: string): never => {
    throw new ItemError(field, why);
  };
  if (!isRecord(item)) return fail('', 'expected a mapping');
  for (const field of Object.keys(item)) if (!FIELDS.includes(field)) fail(field, `unknown field (expected one of ${FIELDS.join(', ')})`);
  const text = (field: string): string | undefined => {
    const value = item[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') fail(field, 'expected a string');
    return String(value);
  };
  const oneOf = <T extends string>(field: string, allowed: readonly T[], fallback: T): T => {
    const value = (text(field) ?? fallback).toUpperCase() as T;
    return allowed.includes(value) ? value : fail(field, `expected ${allowed.join(' or ')}`);
  };

  const given = text('urn');
  if (given !== undefined && !isUrn(given, 'test')) fail('urn', `must be a test URN (${PREFIX}<id>)`);
  const id = text('id');
  if (id === undefined && given === undefined) fail('id', 'one of id or urn is required');
  if (id !== undefined && given !== undefined && given !== `${PREFIX}${id}`) fail('urn', `"${given}" does not match the id "${id}"`);
  const urn = given ?? `${PREFIX}${id}`;
  if (!isUrn(urn, 'test')) fail('id', `"${id}" does not make a valid test URN`);

  const info: TestInfo = {
    name: text('name') ?? fail('name', 'is required'),
    category: text('category') ?? fail('category', 'is required'),
    definition: { type: 'JSON', json: definitionJson(item.definition, registry) },
    status: { mode: oneOf('status', ['ACTIVE', 'INACTIVE'], 'ACTIVE') },
    schedule: { interval: oneOf('schedule', ['DAILY', 'NONE'], 'DAILY') },
  };
  const description = text('description');
  if (description !== undefined) info.description = description;
  return { urn, info };
}

/** Validates the definition and gives its JSON text; parser messages are relative to the definition. */
function definitionJson(definition: unknown, registry: Registry): string {
  if (definition === undefined || definition === null) throw new ItemError('definition', 'is required');
  const json = typeof definition === 'string' ? definition : JSON.stringify(definition);
  try {
    parseDefinition(json, registry);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    // "definition: …" already names the definition; "rules.and[1]…: …" is inside it.
    const inside = !error.message.startsWith('definition:');
    const at = error.message.indexOf(': ');
    throw new ItemError(inside ? `definition.${error.message.slice(0, at)}` : 'definition', error.message.slice(at + 2));
  }
  return json;
}

/** Evaluates tests over the data directory (no server), printing one summary line per test. */
async function run(
  where: StoreOptions,
  named: string[] | undefined,
  push: boolean,
  testsWorkers: number,
  out: (line: string) => void,
  progress?: (text: string) => void,
): Promise<number> {
  const { app, services } = await buildApp({ ...where, logLevel: 'silent', bodyLimit: 1024 * 1024, testsWorkers });
  try {
    const all = await services.tests.catalog.all();
    const unknown = (named ?? []).filter((urn) => !all.has(urn));
    for (const urn of unknown) out(`error     ${urn}: unknown test`);
    if (unknown.length > 0) return 1;
    const selected = named ? named.map((urn) => all.get(urn)!) : [...all.values()].filter((t) => t.active && t.scheduled);
    if (selected.length === 0) {
      out('no active scheduled tests to run');
      return 0;
    }

    // The total is only needed to draw the bar, so it is only counted on a terminal.
    const bar = progress && new ProgressBar(progress, await countEntities(services, new Set(selected.flatMap((t) => t.definition.types))));
    const start = Date.now();
    const summary = await services.tests.run({
      // Left undefined without --test, so results of deleted tests are dropped as in scheduled runs.
      tests: named,
      push,
      actor: SYSTEM_ACTOR,
      onPage: (done) => bar?.update(done),
    });
    const elapsed = Date.now() - start;
    bar?.clear();

    for (const t of summary.tests) {
      const empty = t.selectsNothing ? '  (empty definition {}: selects nothing)' : '';
      out(`${t.urn}  ${t.name}  selected ${count(t.selected)}  passing ${count(t.passing)}  failing ${count(t.failing)}${empty}`);
    }
    const threads = summary.workers > 0 ? ` on ${summary.workers} worker thread${summary.workers > 1 ? 's' : ''}` : '';
    out(`evaluated ${count(summary.entities)} entities in ${(elapsed / 1000).toFixed(1)}s (${count(rate(summary.entities, elapsed))}/s)${threads}`);
    if (push) out('results pushed');
    return 0;
  } finally {
    await app.close();
  }
}

async function countEntities(services: Services, types: Set<string>): Promise<number> {
  let total = 0;
  for (const type of types) {
    for await (const page of services.reader.urnsOf(services.registry.entityType(type)!)) total += page.length;
  }
  return total;
}
