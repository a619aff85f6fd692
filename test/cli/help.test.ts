import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { groupUsage, parseCommand, usage, type CommandSpec } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { failure, runCli } from '../../src/cli/run.js';
import { ConfigError } from '../../src/config.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

type Run = { code: number | undefined; stdout: string; stderr: string };

/** `urnbase …` in this process, as main runs it: exit code, stdout, stderr. */
async function urnbase(...args: string[]): Promise<Run> {
  const text = { stdout: '', stderr: '' };
  const sink = (name: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk, _encoding, done) {
        text[name] += String(chunk);
        done();
      },
    });
  try {
    const code = await runCli(args, { stdout: sink('stdout'), stderr: sink('stderr'), stderrIsTTY: false });
    return { code, ...text };
  } catch (error) {
    const { line, code } = failure(error);
    return { code, stdout: text.stdout, stderr: `${text.stderr}${line}\n` };
  }
}

/** `urnbase …` as a process. */
async function urnbaseProcess(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [MAIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The options each command accepts: the specification the option tables must meet. */
const EXPECTED: Record<string, string[]> = {
  serve: ['port', 'host', 'data-dir', 'database-url', 'db-timeout', 'db-pool', 'sqlite-sync', 'log-level', 'body-limit', 'request-timeout', 'tests-interval', 'tests-on-change', 'tests-workers', 'auth', 'events-retention', 'timeseries-retention', 'shutdown-grace'],
  migrate: ['data-dir', 'database-url'],
  'properties upsert': ['file', 'url', 'token', 'data-dir'],
  'properties list': ['url', 'token', 'data-dir'],
  'tests upsert': ['file', 'url', 'token', 'data-dir'],
  'tests run': ['test', 'push', 'data-dir', 'database-url', 'workers'],
  'token create': ['name', 'role', 'expires', 'data-dir', 'database-url'],
  'token list': ['data-dir', 'database-url'],
  'token revoke': ['data-dir', 'database-url'],
  export: ['data-dir', 'database-url', 'include-tokens', 'output'],
  import: ['file', 'data-dir', 'database-url', 'include-tokens', 'replace'],
};

describe('urnbase <command> --help', () => {
  it('covers every command', () => {
    assert.deepEqual(COMMANDS.map((c) => c.name).sort(), Object.keys(EXPECTED).sort());
    for (const spec of COMMANDS) assert.deepEqual(Object.keys(spec.options), EXPECTED[spec.name], spec.name);
  });

  for (const spec of COMMANDS) {
    it(`${spec.name}: --help and -h print its usage on stdout, naming every option, and exit 0`, async () => {
      for (const help of ['--help', '-h']) {
        const run = await urnbase(...spec.name.split(' '), help);
        assert.deepEqual([run.code, run.stderr], [0, ''], `${spec.name} ${help}`);
        assert.equal(run.stdout, `${usage(spec)}\n`);
        assert.ok(run.stdout.startsWith(`usage: urnbase ${spec.name} `), run.stdout);
        for (const [name, option] of Object.entries(spec.options)) {
          assert.match(run.stdout, new RegExp(`(^|\\s)--${name}[ \\n]`), `${spec.name} --help names --${name}`);
          if (option.short) assert.match(run.stdout, new RegExp(`-${option.short}, --${name}`));
          if (option.env) assert.ok(run.stdout.includes(`$${option.env}`), `${spec.name} --help names $${option.env}`);
        }
        assert.match(run.stdout, /-h, --help/);
      }
    });
  }

  it('tells the truth about the store: which commands need a catalog, which create one, and that a server may keep running', async () => {
    const help = async (...args: string[]) => (await urnbase(...args, '--help')).stdout;
    const testsRun = await help('tests', 'run');
    assert.ok(testsRun.includes('on the store directly (no server needed; one may keep serving it).'), testsRun);
    assert.ok(testsRun.includes("A server may keep serving the same store meanwhile, on SQLite as on PostgreSQL: with --push its writes and\nthe server's take turns"));
    for (const args of [['tests', 'run'], ['export'], ['token', 'create'], ['token', 'list'], ['token', 'revoke']]) {
      assert.match(await help(...args), /without (a catalog|one) is refused \(exit 2\)/, args.join(' '));
    }
    assert.match(await help('migrate'), /creating the catalog if there is none/);
    assert.match(await help('import'), /^Loads an export into an empty store, creating the catalog if there is none;/m);
    assert.match(await help('serve'), /^Creates the data dir and its catalog \(or the PostgreSQL tables\) at the first start, after checking that the port is free\.$/m);
  });

  it('answers as a process too: usage on stdout, exit 0', async () => {
    for (const args of [['serve', '--help'], ['tests', 'run', '-h'], ['token', '--help'], ['--help']]) {
      const run = await urnbaseProcess(...args);
      assert.deepEqual([run.code, run.stderr], [0, ''], args.join(' '));
      assert.equal(run.stdout, (await urnbase(...args)).stdout);
      assert.ok(run.stdout.startsWith('usage: urnbase '));
    }
  });

  it('asks for help even after other, wrong arguments, but not when -h is a value or follows --', async () => {
    const run = await urnbase('token', 'create', '--bogus', '--help');
    assert.equal(run.code, 0);
    assert.ok(run.stdout.startsWith('usage: urnbase token create --name NAME --role ROLE [options]\n'));
    const value = await urnbase('token', 'create', '--name', '-h');
    assert.equal(value.code, 2);
    assert.equal(value.stderr, "urnbase: Option '--name' argument is ambiguous; try urnbase token create --help\n");
  });

  it('every parser accepts each option its usage names', () => {
    for (const spec of COMMANDS) {
      for (const [name, option] of Object.entries(spec.options)) {
        const argv = option.type === 'boolean' ? [`--${name}`] : [`--${name}`, 'x'];
        try {
          parseCommand(spec as CommandSpec, argv);
        } catch (error) {
          // Only the check for a missing required option may fail here, never the option itself.
          assert.match((error as Error).message, / needs /, `${spec.name} --${name}: ${(error as Error).message}`);
        }
      }
    }
  });
});

describe('urnbase --help and the command groups', () => {
  it('lists every command with its summary', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = await urnbase(...args);
      assert.deepEqual([run.code, run.stderr], [0, '']);
      assert.equal(run.stdout, `${groupUsage('', COMMANDS)}\n`);
      for (const spec of COMMANDS) assert.ok(run.stdout.includes(`  ${spec.name}  `), spec.name);
    }
  });

  it('without a command prints the same usage on stderr and exits 2, as a process too', async () => {
    assert.deepEqual(await urnbase(), { code: 2, stdout: '', stderr: `${groupUsage('', COMMANDS)}\n` });
    assert.deepEqual(await urnbaseProcess(), { code: 2, stdout: '', stderr: `${groupUsage('', COMMANDS)}\n` });
  });

  for (const group of ['properties', 'tests', 'token']) {
    it(`urnbase ${group} --help lists its commands`, async () => {
      const specs = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
      for (const help of ['--help', '-h', 'help']) {
        const run = await urnbase(group, help);
        assert.deepEqual([run.code, run.stderr], [0, '']);
        assert.equal(run.stdout, `${groupUsage(group, specs)}\n`);
      }
    });
  }

  it('tells what is missing or unknown in a group, with the pointer to its help (exit 2)', async () => {
    assert.deepEqual(await urnbase('token'), { code: 2, stdout: '', stderr: 'urnbase: token needs a command: create, list or revoke; try urnbase token --help\n' });
    assert.deepEqual(await urnbase('properties', 'upset'), {
      code: 2,
      stdout: '',
      stderr: 'urnbase: unknown properties command "upset"; try urnbase properties --help\n',
    });
  });
});

describe('usage errors', () => {
  const cases: Array<[string[], string]> = [
    [['serve', '--help-me'], "Unknown option '--help-me'; try urnbase serve --help"],
    [['serve', '--port', 'nope'], 'Invalid --port "nope": expected a port number from 0 to 65535; try urnbase serve --help'],
    [['serve', 'now'], "Unexpected argument 'now'; try urnbase serve --help"],
    [['migrate', '--data-dir', 'a', '--database-url', 'postgres://h/db'], 'give --database-url or --data-dir, not both; try urnbase migrate --help'],
    [['properties', 'upsert', '--url', 'http://127.0.0.1:1'], 'properties upsert needs -f FILE; try urnbase properties upsert --help'],
    [['properties', 'list', '--file', 'x.yaml'], "Unknown option '--file'; try urnbase properties list --help"],
    [['properties', 'list', '--url', 'ftp://h'], 'Invalid --url "ftp://h": expected a URL such as http://127.0.0.1:8080; try urnbase properties list --help'],
    [['tests', 'upsert', '-f'], "Option '-f, --file <value>' argument missing; try urnbase tests upsert --help"],
    [['tests', 'run', '--workers', 'many'], 'Invalid --workers "many": expected auto or a number of threads from 0 to 64; try urnbase tests run --help'],
    [['tests', 'run', '--push=yes'], "Option '--push' does not take an argument; try urnbase tests run --help"],
    [['tests', 'run', '--database-url', 'mysql://h/db'], 'Invalid --database-url "mysql://h/db": expected a URL starting with postgres:// or postgresql://; try urnbase tests run --help'],
    [['token', 'create', '--name', 'ci'], 'token create needs --role ROLE; try urnbase token create --help'],
    [['token', 'create', '--name', 'ci', '--role', 'editor', '--expires', 'soon'], 'Invalid --expires "soon": expected a number of days such as 90d; try urnbase token create --help'],
    [['token', 'list', '--role', 'admin'], "Unknown option '--role'; try urnbase token list --help"],
    [['token', 'revoke'], 'token revoke needs exactly one token id; try urnbase token revoke --help'],
    [['export', '--include-token'], "Unknown option '--include-token'; try urnbase export --help"],
    [['import', '--replace'], 'import needs -f FILE; try urnbase import --help'],
  ];
  for (const [args, message] of cases) {
    it(`urnbase ${args.join(' ')}: exit 2, "${message}"`, async () => {
      assert.deepEqual(await urnbase(...args), { code: 2, stdout: '', stderr: `urnbase: ${message}\n` });
    });
  }

  it('reach the process as one line on stderr and exit code 2', async () => {
    assert.deepEqual(await urnbaseProcess('token', 'create', '--help-me'), {
      code: 2,
      stdout: '',
      stderr: "urnbase: Unknown option '--help-me'; try urnbase token create --help\n",
    });
  });

  it('are ConfigErrors of one line', () => {
    assert.throws(
      () => parseCommand(COMMANDS.find((c) => c.name === 'export')!, ['-x']),
      (e: unknown) => e instanceof ConfigError && e.message === "Unknown option '-x'; try urnbase export --help",
    );
  });
});
