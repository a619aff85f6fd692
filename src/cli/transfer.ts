import { createWriteStream, existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { ConfigError } from '../config.js';
import { Registry } from '../registry/registry.js';
import { openStore, type StoreOptions } from '../store/open.js';
import { exportCatalog } from '../transfer/export.js';
import { ImportFormatError } from '../transfer/format.js';
import { importExport, StoreNotEmptyError, validateExport } from '../transfer/import.js';
import { count, ProgressBar } from './progress.js';
import { parseOrHelp, type CommandSpec } from './command.js';
import { requireCatalog, STORE_OPTIONS, storeOptions } from './store-options.js';

export const EXPORT = {
  name: 'export',
  summary: 'Writes the whole catalog, every aspect with its history, as NDJSON (on the store directly).',
  options: {
    ...STORE_OPTIONS,
    'include-tokens': { type: 'boolean', help: 'add the access tokens (their SHA-256 hashes, never secrets)' },
    output: { type: 'string', short: 'o', value: 'FILE', help: 'write to FILE', default: 'stdout' },
  },
  notes: [
    'The summary goes to stderr. A server may keep running on the store; stop its writers for an exact copy.',
    'A data dir or database without a catalog is refused (exit 2).',
  ],
} as const satisfies CommandSpec;

export const IMPORT = {
  name: 'import',
  summary: 'Loads an export into an empty store, creating the catalog if there is none; the file is checked whole first, so bad input changes nothing.',
  options: {
    file: { type: 'string', short: 'f', value: 'FILE', required: true, help: 'the export to load' },
    ...STORE_OPTIONS,
    'include-tokens': { type: 'boolean', help: "load the file's tokens (without it they are skipped); one whose id the store has is skipped" },
    replace: { type: 'boolean', help: "import into a store that holds entities, deleting its aspects first (its tokens stay)" },
  },
} as const satisfies CommandSpec;

function describe(options: StoreOptions): string {
  return options.databaseUrl ? 'the PostgreSQL database' : options.dataDir;
}

/** `urnbase export`: the whole catalog as NDJSON on stdout or in a file. Summary on stderr. */
export async function exportCommand(argv: string[], stdout: Writable, log: (line: string) => void): Promise<number> {
  const parsed = parseOrHelp(EXPORT, argv, (text) => stdout.write(`${text}\n`));
  if (!parsed) return 0;
  const { values } = parsed;
  const where = storeOptions(values, EXPORT.name);
  await requireCatalog(where);
  const started = Date.now();
  const store = await openStore(where);
  const out = values.output ? createWriteStream(values.output) : stdout;
  try {
    const end = await exportCatalog(store, Registry.load(), { includeTokens: values['include-tokens'] === true }, (line) => writeLine(out, line));
    if (values.output) await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    log(
      `exported ${count(end.aspects)} aspects (${count(end.versions)} versions) of ${count(end.entities)} entities` +
        `${end.points ? `, ${count(end.points)} timeseries points` : ''}${values['include-tokens'] ? `, ${count(end.tokens)} tokens` : ''} from ${describe(where)} in ${seconds(started)} s`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** `urnbase import`: loads an export into a store; exit 2 for bad input or a store that is not empty. */
export async function importCommand(argv: string[], log: (line: string) => void, progress?: (text: string) => void): Promise<number> {
  const parsed = parseOrHelp(IMPORT, argv, log);
  if (!parsed) return 0;
  const { values } = parsed;
  if (!existsSync(values.file)) throw new ConfigError(`cannot read ${values.file}: no such file`);
  const where = storeOptions(values, IMPORT.name);
  const started = Date.now();
  const registry = Registry.load();
  // Checked before the store is even opened: bad input creates no empty data dir either.
  const validated = await validateExport(values.file, registry).catch((error: unknown) => {
    if (error instanceof ImportFormatError) throw new ConfigError(`${values.file} ${error.message}; nothing was imported`);
    throw error;
  });
  const store = await openStore(where);
  let bar: ProgressBar | undefined;
  try {
    const summary = await importExport(store, registry, values.file, {
      includeTokens: values['include-tokens'] === true,
      replace: values.replace === true,
      progress: progress && ((done, total) => (bar ??= new ProgressBar(progress, total, 'versions')).update(done)),
    }, validated);
    bar?.clear();
    const skipped = summary.tokensSkipped > 0 ? `, ${count(summary.tokensSkipped)} tokens skipped${values['include-tokens'] ? ' (already present)' : ' (pass --include-tokens)'}` : '';
    log(
      `imported ${count(summary.aspects)} aspects (${count(summary.versions)} versions) of ${count(summary.entities)} entities, ` +
        `${summary.points ? `${count(summary.points)} timeseries points, ` : ''}` +
        `${count(summary.tokens)} tokens${skipped} into ${describe(where)} in ${seconds(started)} s`,
    );
    return 0;
  } catch (error) {
    bar?.clear();
    if (error instanceof ImportFormatError) throw new ConfigError(`${values.file} ${error.message}; nothing was imported`);
    if (error instanceof StoreNotEmptyError) throw new ConfigError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

function seconds(since: number): string {
  return ((Date.now() - since) / 1000).toFixed(1);
}

/** Waits for 'drain' when the stream's buffer is full, so a slow reader holds the export back. */
function writeLine(out: Writable, line: string): Promise<void> {
  if (out.write(`${line}\n`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    out.once('error', onError);
    out.once('drain', () => {
      out.off('error', onError);
      resolve();
    });
  });
}
