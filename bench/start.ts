/**
 * Start benchmark (issue 37): from spawning `urnbase serve` on a fresh data dir to the first 200
 * from /health, on a built tree. Two ways in, alternated each run: `npm start` (npm, then
 * scripts/start.mjs's look at the sources, then the CLI in the same process) and `node
 * dist/src/main.js serve` directly. Each run gets a new data dir (a first start: database created,
 * migrations, the admin token written) and a free port; /health is polled every 5 ms. Medians of
 * --runs runs are reported with the machine's load average, which the wall times depend on, and
 * the CPU time the started processes had used when /health answered (npm's too), which depends
 * on it much less: on an idle machine the wall time is about that CPU time.
 *
 * usage: node dist/bench/start.js [--runs <n>] [--only npm|node]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../test/server-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'dist/src/main.js');
const TARGET_MS = 1500;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, only: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs expects a positive integer');

const WAYS: Record<string, (args: string[]) => [string, string[]]> = {
  'npm start': (args) => ['npm', ['start', '--silent', '--', ...args]],
  'node dist/src/main.js serve': (args) => [process.execPath, [MAIN, 'serve', ...args]],
};

/** Clock ticks a second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** CPU milliseconds (user and system) used so far by the processes of a process group. */
function groupCpuMs(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // After the command's name (in parentheses, which may hold spaces): state, ppid, pgrp, … utime (14), stime (15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS;
}

/** Milliseconds from spawn to the first 200 from /health, and the CPU used by then; the server is stopped after. */
async function startToHealth(way: (args: string[]) => [string, string[]]): Promise<{ wall: number; cpu: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'urnbase-start-bench-'));
  const port = await freePort();
  const [command, args] = way(['--port', String(port), '--data-dir', join(dir, 'data'), '--log-level', 'warn', '--tests-interval', '0']);
  const env = { ...process.env };
  delete env.URNBASE_ADMIN_TOKEN;
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: 'ignore', detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status === 200, () => false);
      if (ok) return { wall: performance.now() - started, cpu: groupCpuMs(child.pid!) };
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('no /health within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    // The whole group: npm start's node child too.
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const names = Object.keys(WAYS).filter((name) => !values.only || name.startsWith(values.only));
  const times: Record<string, Array<{ wall: number; cpu: number }>> = Object.fromEntries(names.map((name) => [name, []]));
  const load = [loadavg()[0]];
  for (const name of names) await startToHealth(WAYS[name]); // warm the file cache, not counted
  for (let i = 0; i < runs; i++) for (const name of names) times[name].push(await startToHealth(WAYS[name]));
  load.push(loadavg()[0]);
  console.log(`start to /health on a built tree, fresh data dir each run, ${runs} runs each; load average ${load.map((l) => l.toFixed(2)).join(' → ')} on ${availableParallelism()} cores`);
  for (const name of names) {
    const ms = times[name].map((t) => t.wall);
    const cpu = times[name].map((t) => t.cpu);
    const verdict = median(ms) < TARGET_MS ? 'under' : 'OVER';
    console.log(
      `  ${name.padEnd(28)} median ${median(ms).toFixed(0)} ms (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}) ${verdict} the ${TARGET_MS} ms target;` +
        ` CPU ${median(cpu).toFixed(0)} ms (min ${Math.min(...cpu).toFixed(0)})`,
    );
  }
}

await main();
