import os from 'node:os';
import { parseArgs } from 'node:util';

/** The one typed, validated configuration object, from flags and environment variables. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of SQLite in dataDir (postgres:// or postgresql://). */
  databaseUrl?: string;
  /** PostgreSQL query and connection-acquire timeout, in ms. */
  dbTimeout: number;
  /** PostgreSQL connections per process. */
  dbPool: number;
  /** SQLite commits: `normal` survives a process crash, `full` also a power loss (an fsync per commit). */
  sqliteSync: SqliteSync;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** How long a client may take to send a whole request (headers and body), in ms. */
  requestTimeout: number;
  /** How often scheduled metadata tests run over the catalog, in ms; 0 turns it off. */
  testsInterval: number;
  /** Re-evaluate an entity's metadata tests shortly after it changes. */
  testsOnChange: boolean;
  /** Worker threads for catalog-wide metadata-test runs; 0 runs them on the main thread. */
  testsWorkers: number;
  /** How long change-log events are kept, in ms; 0 keeps them forever. */
  eventsRetention: number;
  /** How long timeseries points are kept (by their timestampMillis), in ms; 0 keeps them all. */
  timeseriesRetention: number;
  /** Require a bearer token on every route but health, config and the API document. */
  auth: boolean;
  /** How long `serve` waits for in-flight requests after SIGTERM/SIGINT before cutting them off, in ms. */
  shutdownGrace: number;
  /** URNBASE_ADMIN_TOKEN: a secret valid as an admin token (environment only, never a flag). */
  adminToken?: string;
}

export type SqliteSync = 'normal' | 'full';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Every option of `serve`: flag name, environment variable, default, how to read it, and its line
 * in `urnbase serve --help` (the value's name and what it does).
 */
const OPTIONS = {
  port: { env: 'URNBASE_PORT', default: '8080', parse: parsePort, value: 'PORT', help: 'TCP port, 0-65535 (0: any free port)' },
  host: { env: 'URNBASE_HOST', default: '127.0.0.1', parse: parseHost, value: 'HOST', help: 'address to listen on (0.0.0.0: every interface)' },
  'data-dir': { env: 'URNBASE_DATA_DIR', default: './data', parse: parseNonEmpty, value: 'DIR', help: 'where the SQLite catalog urnbase.db and admin.token live' },
  'database-url': { env: 'URNBASE_DATABASE_URL', default: '', parse: parseDatabaseUrl, value: 'URL', help: 'PostgreSQL instead of SQLite (postgres://... or postgresql://...)' },
  'db-timeout': { env: 'URNBASE_DB_TIMEOUT', default: '10s', parse: parseTimeout, value: 'DURATION', help: 'PostgreSQL query and connection-acquire timeout' },
  'db-pool': { env: 'URNBASE_DB_POOL', default: '10', parse: parsePoolSize, value: 'N', help: 'PostgreSQL connections per process, 1-1000' },
  'sqlite-sync': { env: 'URNBASE_SQLITE_SYNC', default: 'normal', parse: parseSqliteSync, value: 'MODE', help: 'normal (survives a process crash) or full (also a power loss)' },
  'log-level': { env: 'URNBASE_LOG_LEVEL', default: 'info', parse: parseLogLevel, value: 'LEVEL', help: 'fatal, error, warn, info, debug, trace or silent (JSON lines on stdout)' },
  'body-limit': { env: 'URNBASE_BODY_LIMIT', default: '16mb', parse: parseSize, value: 'SIZE', help: 'largest request body (1048576, 512kb, 16mb)' },
  'request-timeout': { env: 'URNBASE_REQUEST_TIMEOUT', default: '30s', parse: parseRequestTimeout, value: 'DURATION', help: 'how long a client may take to send a whole request (408 after)' },
  'tests-interval': { env: 'URNBASE_TESTS_INTERVAL', default: '24h', parse: parseDuration, value: 'DURATION', help: 'how often scheduled metadata tests run (0: never)' },
  'tests-on-change': { env: 'URNBASE_TESTS_ON_CHANGE', default: 'true', parse: parseBoolean, value: 'BOOL', help: "re-evaluate an entity's metadata tests after it changes" },
  'tests-workers': { env: 'URNBASE_TESTS_WORKERS', default: 'auto', parse: parseWorkers, value: 'N', help: 'worker threads for catalog-wide test runs: auto or 0-64' },
  auth: { env: 'URNBASE_AUTH', default: 'true', parse: parseBoolean, value: 'BOOL', help: 'require bearer tokens (false: anyone may read and write)' },
  'events-retention': { env: 'URNBASE_EVENTS_RETENTION', default: '30d', parse: parseRetention, value: 'DURATION', help: 'how long change-log events are kept (0: forever)' },
  'timeseries-retention': { env: 'URNBASE_TIMESERIES_RETENTION', default: '0', parse: parseRetention, value: 'DURATION', help: 'how long timeseries points are kept, by their timestampMillis (0: all)' },
  'shutdown-grace': { env: 'URNBASE_SHUTDOWN_GRACE', default: '10s', parse: parseDuration, value: 'DURATION', help: 'on SIGTERM/SIGINT, how long in-flight requests may still run' },
} as const;

type OptionName = keyof typeof OPTIONS;

/** The serve options as `urnbase serve --help` shows them (the parser below reads the same table). */
export const SERVE_OPTIONS: ReadonlyArray<{ name: string; env: string; default: string; value: string; help: string }> = Object.entries(OPTIONS).map(
  ([name, o]) => ({ name, env: o.env, default: o.default, value: o.value, help: o.help }),
);

/** A parseArgs error as one short line: its first sentence, without Node's hint on positionals. */
export function parseArgsMessage(error: unknown): string {
  return (error as Error).message.split('\n')[0].split('. ')[0].replace(/\.$/, '');
}

/** Flags win over environment variables, which win over defaults. Throws ConfigError (one line). */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Config {
  let values: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, { type: 'string' as const }]));
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Record<string, string>;
  } catch (error) {
    throw new ConfigError(parseArgsMessage(error));
  }
  const read = <N extends OptionName>(name: N): ReturnType<(typeof OPTIONS)[N]['parse']> => {
    const option = OPTIONS[name];
    const raw = values[name] ?? env[option.env] ?? option.default;
    const source = values[name] !== undefined ? `--${name}` : env[option.env] !== undefined ? option.env : `--${name}`;
    try {
      return option.parse(raw) as ReturnType<(typeof OPTIONS)[N]['parse']>;
    } catch (error) {
      throw new ConfigError(`Invalid ${source} ${JSON.stringify(raw)}: ${(error as Error).message}`);
    }
  };
  return {
    port: read('port'),
    host: read('host'),
    dataDir: read('data-dir'),
    ...optional('databaseUrl', read('database-url')),
    dbTimeout: read('db-timeout'),
    dbPool: read('db-pool'),
    sqliteSync: read('sqlite-sync'),
    logLevel: read('log-level'),
    bodyLimit: read('body-limit'),
    requestTimeout: read('request-timeout'),
    testsInterval: read('tests-interval'),
    testsOnChange: read('tests-on-change'),
    testsWorkers: read('tests-workers'),
    auth: read('auth'),
    eventsRetention: read('events-retention'),
    timeseriesRetention: read('timeseries-retention'),
    shutdownGrace: read('shutdown-grace'),
    ...(env.URNBASE_ADMIN_TOKEN ? { adminToken: adminToken(env.URNBASE_ADMIN_TOKEN) } : {}),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Empty: SQLite. Otherwise a PostgreSQL connection URL. */
export function parseDatabaseUrl(raw: string): string | undefined {
  if (raw === '') return undefined;
  if (!/^postgres(ql)?:\/\/\S+$/.test(raw)) throw new Error('expected a URL starting with postgres:// or postgresql://');
  return raw;
}

function parseTimeout(raw: string): number {
  const ms = parseDuration(raw);
  if (ms < 100) throw new Error('expected a duration of at least 100ms, such as 10s');
  return ms;
}

function parseRequestTimeout(raw: string): number {
  const ms = parseDuration(raw);
  if (ms < 1000) throw new Error('expected a duration of at least 1s, such as 30s');
  return ms;
}

function parsePoolSize(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000) throw new Error('expected a number of connections from 1 to 1000');
  return Number(raw);
}

function parseSqliteSync(raw: string): SqliteSync {
  if (raw !== 'normal' && raw !== 'full') throw new Error('expected normal or full');
  return raw;
}

function parsePort(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new Error('expected a port number from 0 to 65535');
  return Number(raw);
}

function parseHost(raw: string): string {
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(raw)) throw new Error('expected a host name or IP address');
  return raw;
}

function parseNonEmpty(raw: string): string {
  if (raw.trim() === '') throw new Error('must not be empty');
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function parseLogLevel(raw: string): Config['logLevel'] {
  const level = LOG_LEVELS.find((l) => l === raw);
  if (!level) throw new Error(`expected one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

const UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

function parseSize(raw: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined || Number(match[1]) === 0) throw new Error('expected a size such as 1048576, 512kb or 16mb');
  return Number(match[1]) * unit;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `0` (off), `90s`, `30m`, `24h`, `7d`, or plain milliseconds. */
function parseDuration(raw: string): number {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!match) throw new Error('expected a duration such as 0, 90s, 30m, 24h or 7d');
  const ms = Number(match[1]) * DURATION_UNITS[match[2] ?? 'ms'];
  if (ms > 2_147_483_647) throw new Error('must be at most 24 days');
  return ms;
}

/** `0` (keep forever), or days, hours, minutes: `30d`, `12h`, `90m`; up to 100 years. */
function parseRetention(raw: string): number {
  const match = /^(\d+)\s*(d|h|m)?$/.exec(raw.trim());
  if (!match || (match[1] !== '0' && match[2] === undefined)) throw new Error('expected 0 (keep forever) or a duration such as 30d, 12h or 90m');
  const ms = Number(match[1]) * DURATION_UNITS[match[2] ?? 'm'];
  if (ms > 100 * 365 * DURATION_UNITS.d) throw new Error('must be at most 100 years');
  return ms;
}

/** `auto` (one per core, at most 4), or a number from 0 (the main thread) to 64. */
export function parseWorkers(raw: string): number {
  if (raw === 'auto') return defaultWorkers();
  if (!/^\d+$/.test(raw) || Number(raw) > 64) throw new Error('expected auto or a number of threads from 0 to 64');
  return Number(raw);
}

export function defaultWorkers(): number {
  return Math.min(os.availableParallelism(), 4);
}

function parseBoolean(raw: string): boolean {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error('expected true or false');
}

/** An operator-chosen admin token must be hard to guess, like the ones urnbase makes. */
function adminToken(raw: string): string {
  if (raw.length < 32 || /\s/.test(raw)) throw new ConfigError('Invalid URNBASE_ADMIN_TOKEN: use at least 32 characters and no spaces');
  return raw;
}
