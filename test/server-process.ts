import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr (its JSON log lines), when captured. */
  output(): string;
  /** Resident memory of the process now, in bytes (Linux /proc). */
  rss(): number;
  /** Sends the signal and waits for the process to be gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerOptions {
  /** Flags after `serve` (the port is chosen here). */
  args: string[];
  env?: Record<string, string>;
  /** Listen here (a restart on the same address); default a free port. */
  port?: number;
  /** Keep the process's output for `output()` (default: discarded). */
  capture?: boolean;
  /** Flags for node itself, before the script. */
  nodeArgs?: string[];
}

/** `urnbase serve` as its own process; resolves once /health answers. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN, 'serve', '--port', String(port), ...options.args], {
    stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'ignore',
    env: { ...process.env, ...options.env },
  });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ServerProcess = {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => Buffer.concat(chunks).toString('utf8'),
    rss: () => residentBytes(child.pid!),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break;
    if (await fetch(`${server.base}/health`).then((r) => r.status === 200, () => false)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop('SIGKILL');
  throw new Error(`urnbase serve did not start: ${server.output().slice(-2000)}`);
}

/** VmRSS of a process, in bytes. */
export function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
