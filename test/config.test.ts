import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseArgsMessage, SERVE_OPTIONS } from '../src/config.js';

describe('configuration', () => {
  it('has defaults: port 8080, host 127.0.0.1, data dir ./data', () => {
    assert.deepEqual(loadConfig([], {}), {
      port: 8080,
      host: '127.0.0.1',
      dataDir: './data',
      dbTimeout: 10_000,
      dbPool: 10,
      sqliteSync: 'normal',
      logLevel: 'info',
      bodyLimit: 16 * 1024 * 1024,
      requestTimeout: 30_000,
      testsInterval: 24 * 3600 * 1000,
      testsOnChange: true,
      testsWorkers: Math.min(os.availableParallelism(), 4),
      auth: true,
      eventsRetention: 30 * 86_400_000,
      timeseriesRetention: 0,
      shutdownGrace: 10_000,
    });
  });

  it('reads environment variables', () => {
    const config = loadConfig([], {
      URNBASE_PORT: '9000',
      URNBASE_HOST: '0.0.0.0',
      URNBASE_DATA_DIR: '/tmp/x',
      URNBASE_DATABASE_URL: 'postgres://db.example:5432/urnbase',
      URNBASE_DB_TIMEOUT: '3s',
      URNBASE_DB_POOL: '20',
      URNBASE_SQLITE_SYNC: 'full',
      URNBASE_LOG_LEVEL: 'warn',
      URNBASE_BODY_LIMIT: '512kb',
      URNBASE_REQUEST_TIMEOUT: '1m',
      URNBASE_TESTS_INTERVAL: '30m',
      URNBASE_TESTS_ON_CHANGE: 'false',
      URNBASE_TESTS_WORKERS: '3',
      URNBASE_AUTH: 'false',
      URNBASE_EVENTS_RETENTION: '7d',
      URNBASE_TIMESERIES_RETENTION: '90d',
      URNBASE_SHUTDOWN_GRACE: '30s',
      URNBASE_ADMIN_TOKEN: 'a-long-enough-secret-for-an-admin-token',
    });
    assert.deepEqual(config, {
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://db.example:5432/urnbase',
      dbTimeout: 3000,
      dbPool: 20,
      sqliteSync: 'full',
      logLevel: 'warn',
      bodyLimit: 512 * 1024,
      requestTimeout: 60_000,
      testsInterval: 30 * 60 * 1000,
      testsOnChange: false,
      testsWorkers: 3,
      auth: false,
      eventsRetention: 7 * 86_400_000,
      timeseriesRetention: 90 * 86_400_000,
      shutdownGrace: 30_000,
      adminToken: 'a-long-enough-secret-for-an-admin-token',
    });
  });

  it('keeps timeseries points all by default, or as long as --timeseries-retention says', () => {
    assert.equal(loadConfig([], {}).timeseriesRetention, 0);
    assert.equal(loadConfig(['--timeseries-retention', '30d'], {}).timeseriesRetention, 30 * 86_400_000);
    assert.throws(() => loadConfig(['--timeseries-retention', '30'], {}), {
      name: 'ConfigError',
      message: 'Invalid --timeseries-retention "30": expected 0 (keep forever) or a duration such as 30d, 12h or 90m',
    });
  });

  it('keeps change-log events 30 days, as long as asked (beyond the 24 days of timers), or forever with 0', () => {
    assert.equal(loadConfig(['--events-retention', '0'], {}).eventsRetention, 0);
    assert.equal(loadConfig(['--events-retention', '365d'], {}).eventsRetention, 365 * 86_400_000);
    assert.equal(loadConfig(['--events-retention', '12h'], {}).eventsRetention, 12 * 3_600_000);
    assert.throws(() => loadConfig(['--events-retention', '30'], {}), {
      name: 'ConfigError',
      message: 'Invalid --events-retention "30": expected 0 (keep forever) or a duration such as 30d, 12h or 90m',
    });
  });

  it('syncs SQLite commits normally (process-crash safe) unless told full (power-loss safe)', () => {
    assert.equal(loadConfig(['--sqlite-sync', 'full'], {}).sqliteSync, 'full');
    assert.throws(() => loadConfig(['--sqlite-sync', 'off'], {}), { name: 'ConfigError', message: 'Invalid --sqlite-sync "off": expected normal or full' });
  });

  it('drains in-flight requests for 10 seconds on SIGTERM unless told otherwise', () => {
    assert.equal(loadConfig([], {}).shutdownGrace, 10_000);
    assert.equal(loadConfig(['--shutdown-grace', '2s'], {}).shutdownGrace, 2000);
  });

  it('selects PostgreSQL by a postgres:// or postgresql:// URL and refuses anything else', () => {
    assert.equal(loadConfig(['--database-url', 'postgresql://u@h/db'], {}).databaseUrl, 'postgresql://u@h/db');
    assert.equal(loadConfig([], {}).databaseUrl, undefined);
    assert.throws(
      () => loadConfig(['--database-url', 'mysql://h/db'], {}),
      (e: unknown) =>
        e instanceof ConfigError && e.message === 'Invalid --database-url "mysql://h/db": expected a URL starting with postgres:// or postgresql://',
    );
    assert.throws(
      () => loadConfig([], { URNBASE_DB_POOL: '0' }),
      (e: unknown) => e instanceof ConfigError && e.message === 'Invalid URNBASE_DB_POOL "0": expected a number of connections from 1 to 1000',
    );
    assert.throws(
      () => loadConfig(['--db-timeout', 'soon'], {}),
      (e: unknown) => e instanceof ConfigError && e.message === 'Invalid --db-timeout "soon": expected a duration such as 0, 90s, 30m, 24h or 7d',
    );
  });

  it('turns scheduled metadata tests off with an interval of 0', () => {
    assert.equal(loadConfig(['--tests-interval', '0'], {}).testsInterval, 0);
    assert.equal(loadConfig(['--tests-interval', '90s'], {}).testsInterval, 90_000);
  });

  it('runs catalog-wide tests on one worker thread per core (at most 4), or as many as asked, 0 for none', () => {
    assert.equal(loadConfig(['--tests-workers', 'auto'], {}).testsWorkers, Math.min(os.availableParallelism(), 4));
    assert.equal(loadConfig(['--tests-workers', '0'], {}).testsWorkers, 0);
    assert.equal(loadConfig(['--tests-workers', '8'], {}).testsWorkers, 8);
  });

  it('lets flags win over environment variables', () => {
    const config = loadConfig(['--port', '9001', '--data-dir=/srv/urnbase'], { URNBASE_PORT: '9000' });
    assert.equal(config.port, 9001);
    assert.equal(config.dataDir, '/srv/urnbase');
  });

  const bad: Array<[string[], NodeJS.ProcessEnv, string]> = [
    [['--port', 'http'], {}, 'Invalid --port "http": expected a port number from 0 to 65535'],
    [[], { URNBASE_PORT: '70000' }, 'Invalid URNBASE_PORT "70000": expected a port number from 0 to 65535'],
    [['--host', 'a b'], {}, 'Invalid --host "a b": expected a host name or IP address'],
    [['--data-dir', ' '], {}, 'Invalid --data-dir " ": must not be empty'],
    [['--log-level', 'loud'], {}, 'Invalid --log-level "loud": expected one of fatal, error, warn, info, debug, trace, silent'],
    [['--body-limit', '10 parsecs'], {}, 'Invalid --body-limit "10 parsecs": expected a size such as 1048576, 512kb or 16mb'],
    [['--tests-interval', 'daily'], {}, 'Invalid --tests-interval "daily": expected a duration such as 0, 90s, 30m, 24h or 7d'],
    [['--tests-interval', '30d'], {}, 'Invalid --tests-interval "30d": must be at most 24 days'],
    [[], { URNBASE_TESTS_ON_CHANGE: 'yes' }, 'Invalid URNBASE_TESTS_ON_CHANGE "yes": expected true or false'],
    [['--tests-workers', 'many'], {}, 'Invalid --tests-workers "many": expected auto or a number of threads from 0 to 64'],
    [[], { URNBASE_TESTS_WORKERS: '65' }, 'Invalid URNBASE_TESTS_WORKERS "65": expected auto or a number of threads from 0 to 64'],
  ];
  for (const [argv, env, message] of bad) {
    it(`stops with a one-line error: ${message}`, () => {
      assert.throws(() => loadConfig(argv, env), (e: unknown) => e instanceof ConfigError && e.message === message);
    });
  }

  it('rejects a short admin token', () => {
    assert.throws(
      () => loadConfig([], { URNBASE_ADMIN_TOKEN: 'short' }),
      (e: unknown) => e instanceof ConfigError && e.message === 'Invalid URNBASE_ADMIN_TOKEN: use at least 32 characters and no spaces',
    );
  });

  it('rejects unknown flags', () => {
    assert.throws(
      () => loadConfig(['--prot', '1'], {}),
      (e: unknown) => e instanceof ConfigError && /Unknown option '--prot'/.test(e.message) && !e.message.includes('\n'),
    );
  });

  it('accepts every option serve --help lists, each at its listed default', () => {
    assert.equal(SERVE_OPTIONS.length, 17);
    for (const option of SERVE_OPTIONS) {
      assert.doesNotThrow(() => loadConfig([`--${option.name}`, option.default], {}), `--${option.name} ${option.default}`);
      assert.match(option.env, /^URNBASE_[A-Z_]+$/);
      assert.ok(option.value && option.help, option.name);
    }
  });

  it('gives a client 30 s to send a request by default, at least 1 s', () => {
    assert.equal(loadConfig(['--request-timeout', '5s'], {}).requestTimeout, 5000);
    assert.throws(() => loadConfig(['--request-timeout', '500ms'], {}), {
      name: 'ConfigError',
      message: 'Invalid --request-timeout "500ms": expected a duration of at least 1s, such as 30s',
    });
  });

  it("keeps parseArgs' messages to their first sentence", () => {
    assert.throws(() => loadConfig(['now'], {}), { name: 'ConfigError', message: "Unexpected argument 'now'" });
    assert.equal(parseArgsMessage(new Error("Option '--name' argument is ambiguous.\nDid you forget …")), "Option '--name' argument is ambiguous");
  });
});
