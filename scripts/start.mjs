// `npm start`: builds, but only when something changed since the last build, then runs the CLI
// (`serve` and npm start's arguments) in this same process. `tsc -b` alone costs about 0.35 s even
// when it has nothing to do (loading the compiler), a look at the sources' modification times
// about 0.01 s, and a second Node process another 0.1 s. Plain JavaScript: it runs before
// anything is built.
//
// Stale when the build stamp or the bin is missing, or any file or directory under the compiled
// roots (a directory's time changes when a file in it is added, removed or renamed), tsconfig.json
// or package.json is newer than the stamp. Then the build runs (tsc -b decides precisely: it
// compares contents) and the stamp is set to when that build started, so an edit made during it is
// seen next time.
//
// A first build takes a minute or more: each step of package.json's build script is run here, one
// at a time, with a line on stderr saying which step it is and how long it took (stdout is the
// server's JSON log). On a terminal the line counts the seconds while the step runs.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const STAMP = 'dist/tsconfig.tsbuildinfo';
const BIN = 'dist/src/main.js';
const INPUTS = ['tsconfig.json', 'package.json', 'src', 'test', 'bench', 'console'];

/** What a newcomer reads for each known step of the build script; other steps show their command. */
const LABELS = [
  [/^tsc -b\b/, 'compiling the server (tsc)'],
  [/^tsc -p console\b/, 'type-checking the console (tsc)'],
  [/^vite build\b/, 'bundling the console (vite)'],
];
/** Steps too quick to be worth a line of their own. */
const QUIET = /^chmod\b/;

/** The newest modification time at or under `path`, 0 when it does not exist. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  let time = stat.mtimeMs;
  if (stat.isDirectory()) for (const entry of readdirSync(path)) time = Math.max(time, newest(join(path, entry)));
  return time;
}

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const say = (text) => process.stderr.write(text);

/**
 * Runs one step as `npm run` would (a shell, node_modules/.bin first on the PATH). Its output is
 * held back and shown after the step's line, so a compiler error does not land inside the counter.
 */
function runStep(command, line, tty) {
  const started = Date.now();
  const env = { ...process.env, PATH: [resolve('node_modules/.bin'), process.env.PATH].join(delimiter) };
  const child = spawn(command, { shell: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  if (line) say(tty ? `${line} … 0 s` : `${line} …\n`);
  const ticker = line && tty ? setInterval(() => say(`\r${line} … ${Math.round((Date.now() - started) / 1000)} s`), 1000) : undefined;
  return new Promise((done) => {
    child.once('close', (code, signal) => {
      clearInterval(ticker);
      const status = code ?? (signal ? 1 : 0);
      if (line) say(`${tty ? '\r\x1b[K' : ''}${line}: ${status === 0 ? 'done' : 'FAILED'} in ${seconds(started)}\n`);
      if (output.length > 0) process.stderr.write(Buffer.concat(output));
      done(status);
    });
  });
}

/** Runs package.json's build script step by step; resolves to the first failing step's exit code, or 0. */
async function build() {
  const script = JSON.parse(readFileSync('package.json', 'utf8')).scripts.build;
  const steps = script.split(' && ').map((command) => ({ command, label: QUIET.test(command) ? undefined : (LABELS.find(([pattern]) => pattern.test(command))?.[1] ?? command) }));
  const shown = steps.filter((s) => s.label).length;
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  say('urnbase: building (a first build takes a minute or two; later starts rebuild only what changed)\n');
  let k = 0;
  for (const step of steps) {
    const line = step.label && `[${++k}/${shown}] ${step.label}`;
    const status = await runStep(step.command, line, tty);
    if (status !== 0) return status;
  }
  say(`urnbase: built in ${seconds(started)}\n`);
  return 0;
}

const stamp = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs;
const stale = stamp === undefined || !statSync(BIN, { throwIfNoEntry: false }) || INPUTS.some((input) => newest(input) > stamp);
if (stale) {
  const started = new Date();
  const status = await build();
  // The failing step has printed what is wrong; npm start stops here.
  if (status !== 0) process.exit(status);
  utimesSync(STAMP, started, started);
}

// The CLI reads its arguments from process.argv after the script, as if started as dist/src/main.js.
if (process.argv.length > 2) await import(pathToFileURL(join(process.cwd(), BIN)).href);
