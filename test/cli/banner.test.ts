import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startBanner, type BannerFacts } from '../../src/cli/serve.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENV_TOKEN = 'urnb_banner-test-admin-token-0123456789abcdef';

/** The banner's lines between the first and the admin token's, with the port put back as PORT. */
const URLS = [
  '  console:  http://127.0.0.1:PORT/',
  '  API:      http://127.0.0.1:PORT/openapi/swagger-ui/ (Swagger UI)',
  '  GraphiQL: http://127.0.0.1:PORT/graphiql/',
  '  health:   http://127.0.0.1:PORT/health',
];
const LINES = URLS.length + 2;

/**
 * `urnbase serve --port 0` until its banner is out: its stderr lines, with the port it chose put
 * back as PORT. Then /health on that port must answer, and SIGTERM stops it. `command` is how
 * serve is started (main.js by default; npm start's script).
 */
async function banner(
  args: string[],
  env: Record<string, string | undefined> = {},
  command: string[] = [MAIN],
): Promise<{ lines: string[]; stdout: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, URNBASE_ADMIN_TOKEN: undefined, ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [...command, 'serve', '--port', '0', '--tests-interval', '0', ...args], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: ROOT,
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 30 s: ${stderr}`)), 30_000);
      child.stderr.on('data', (d) => {
        stderr += d;
        if (stderr.split('\n').length > LINES) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', () => reject(new Error(`serve exited: ${stderr}`)));
    });
    const port = /^urnbase serving http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
    assert.ok(port, stderr);
    assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200, 'the banner names the port that answers');
    assert.equal((await fetch(`http://127.0.0.1:${port}/graphiql/`)).status, 200, 'GraphiQL is where the banner says');
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 200, 'the console is where the banner says');
    return { lines: stderr.replaceAll(`:${port}`, ':PORT').split('\n').slice(0, -1), stdout };
  } finally {
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  }
}

describe('the start banner of urnbase serve', () => {
  const root = mkdtempSync(join(tmpdir(), 'urnbase-banner-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('names the URL, Swagger UI and the new admin token file at --log-level warn, where the JSON log shows none of it', async () => {
    const dir = join(root, 'warn');
    const { lines, stdout } = await banner(['--log-level', 'warn', '--data-dir', dir]);
    assert.deepEqual(lines, [
      'urnbase serving http://127.0.0.1:PORT',
      ...URLS,
      `admin token: in ${join(dir, 'admin.token')} (created at this first start)`,
    ]);
    assert.equal(stdout, '', 'nothing at warn level on stdout: the banner is not a log line');
  });

  it('says the same at --log-level silent, on a later start that the file was written at the first', async () => {
    const dir = join(root, 'warn');
    const { lines, stdout } = await banner(['--log-level', 'silent', '--data-dir', dir]);
    assert.deepEqual(lines, [
      'urnbase serving http://127.0.0.1:PORT',
      ...URLS,
      `admin token: in ${join(dir, 'admin.token')} (written at the first start)`,
    ]);
    assert.equal(stdout, '');
  });

  it('says when the token file is gone, and how to get a token', async () => {
    const dir = join(root, 'warn');
    unlinkSync(join(dir, 'admin.token'));
    const { lines } = await banner(['--log-level', 'silent', '--data-dir', dir]);
    assert.equal(
      lines[LINES - 1],
      `admin token: no ${join(dir, 'admin.token')} (tokens exist already): use one you have, or create one with urnbase token create --name NAME --role admin`,
    );
  });

  it('names URNBASE_ADMIN_TOKEN when the token comes from the environment (never the token)', async () => {
    const { lines } = await banner(['--log-level', 'warn', '--data-dir', join(root, 'env')], { URNBASE_ADMIN_TOKEN: ENV_TOKEN });
    assert.deepEqual(lines, [
      'urnbase serving http://127.0.0.1:PORT',
      ...URLS,
      'admin token: the value of URNBASE_ADMIN_TOKEN',
    ]);
  });

  it('says that authentication is off with --auth false, at --log-level silent too', async () => {
    const { lines, stdout } = await banner(['--log-level', 'silent', '--auth', 'false', '--data-dir', join(root, 'open')]);
    assert.deepEqual(lines, [
      'urnbase serving http://127.0.0.1:PORT',
      ...URLS,
      'authentication is OFF (--auth false): anyone who can reach this port can read and write everything',
    ]);
    assert.equal(stdout, '');
  });

  it('is what a fresh npm start prints on a built tree, after no build', async () => {
    const dir = join(root, 'npm-start');
    const { lines, stdout } = await banner(['--log-level', 'warn', '--data-dir', dir], {}, [join(ROOT, 'scripts/start.mjs')]);
    assert.deepEqual(lines, ['urnbase serving http://127.0.0.1:PORT', ...URLS, `admin token: in ${dir}/admin.token (created at this first start)`]);
    assert.equal(stdout, '');
  });

  it('names a browsable address when listening on every interface', async () => {
    const { lines } = await banner(['--log-level', 'silent', '--host', '0.0.0.0', '--data-dir', join(root, 'all')], { URNBASE_ADMIN_TOKEN: ENV_TOKEN });
    assert.equal(lines[0], 'urnbase serving http://127.0.0.1:PORT (listening on 0.0.0.0: every interface)');
  });
});

describe('startBanner', () => {
  const facts: BannerFacts = {
    host: '127.0.0.1',
    port: 8080,
    auth: true,
    adminTokenFromEnv: false,
    inMemory: false,
    tokenFile: '/srv/urnbase/admin.token',
    created: false,
    fileExists: true,
  };

  it('brackets IPv6 addresses and names [::1] for the IPv6 wildcard', () => {
    assert.equal(startBanner({ ...facts, host: '::1' })[0], 'urnbase serving http://[::1]:8080');
    assert.equal(startBanner({ ...facts, host: '::' })[0], 'urnbase serving http://[::1]:8080 (listening on ::: every interface)');
    assert.equal(startBanner({ ...facts, host: 'localhost' })[2], '  API:      http://localhost:8080/openapi/swagger-ui/ (Swagger UI)');
  });

  it('asks for URNBASE_ADMIN_TOKEN when the data dir is :memory:', () => {
    assert.equal(startBanner({ ...facts, inMemory: true, fileExists: false }).at(-1), 'admin token: none (the data dir :memory: has nowhere to write one): set URNBASE_ADMIN_TOKEN');
  });
});
