// `npm start`: builds, but only when something changed since the last build, then runs the CLI
// (`serve` and npm start's arguments) in this same process. `tsc -b` alone costs about 0.35 s even
// when it has nothing to do (loading the compiler), a look at the sources' modification times
// about 0.01 s, and a second Node process another 0.1 s. Plain JavaScript: it runs before
// anything is built.
//
// Stale when the build stamp or the bin is missing, or any file or directory under the compiled
// roots (a directory's time changes when a file in it is added, removed or renamed), tsconfig.json
// or package.json is newer than the stamp. Then `npm run build` decides precisely (tsc -b compares
// contents) and the stamp is set to when that build started, so an edit made during it is seen next time.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const STAMP = 'dist/tsconfig.tsbuildinfo';
const BIN = 'dist/src/main.js';
const INPUTS = ['tsconfig.json', 'package.json', 'src', 'test', 'bench', 'console'];

/** The newest modification time at or under `path`, 0 when it does not exist. */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  let time = stat.mtimeMs;
  if (stat.isDirectory()) for (const entry of readdirSync(path)) time = Math.max(time, newest(join(path, entry)));
  return time;
}

const stamp = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs;
const stale = stamp === undefined || !statSync(BIN, { throwIfNoEntry: false }) || INPUTS.some((input) => newest(input) > stamp);
if (stale) {
  const started = new Date();
  // The npm running this script (npm_execpath), else the one on the PATH.
  const [command, args] = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  try {
    execFileSync(command, [...args, 'run', 'build', '--silent'], { stdio: 'inherit' });
  } catch (error) {
    // tsc has printed what is wrong; npm start stops here.
    process.exit(error.status ?? 1);
  }
  utimesSync(STAMP, started, started);
}

// The CLI reads its arguments from process.argv after the script, as if started as dist/src/main.js.
if (process.argv.length > 2) await import(pathToFileURL(join(process.cwd(), BIN)).href);
