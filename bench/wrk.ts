/**
 * The load generator of the benchmarks: wrk, a C program, run with one thread so it takes one
 * core at most and leaves the server the other. (A Node generator on two cores capped the bare
 * route and so flattered every ratio.) Requests are prepared here and replayed by wrk.lua.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/wrk.lua');

/** One request a scenario sends: its path (with the query), headers and body. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkResult {
  /** Completed requests per second. */
  rate: number;
  requests: number;
  ok: number;
  /** Answers that were not 2xx, and the first few of them. */
  other: number;
  otherStatuses: string;
  errors: { connect: number; read: number; write: number; timeout: number };
  latencyMs: { p50: number; p90: number; p95: number; p99: number; max: number };
}

interface Report {
  durationUs: number;
  requests: number;
  ok: number;
  other: number;
  otherStatuses: string;
  errors: WrkResult['errors'];
  latencyUs: { p50: number; p90: number; p95: number; p99: number; max: number };
}

/** `wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer …` → `wrk debian/4.1.0-3+b2`. */
const version = (out: string): string => /^wrk \S+/.exec(out)?.[0] ?? 'wrk';

/** Fails with what to do when wrk is not installed. */
export function requireWrk(): string {
  try {
    return version(execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    // wrk --version prints its usage and exits 1; only a missing binary is an error here.
    const out = (error as { stdout?: string }).stdout;
    if (typeof out === 'string' && out.startsWith('wrk')) return version(out);
    throw new Error('the benchmarks need wrk (a C load generator): install it with `apt-get install wrk`');
  }
}

/** The raw HTTP/1.1 text of a request, as wrk sends it. */
function raw(host: string, request: HttpRequest): string {
  const body = request.body ?? '';
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Writes the requests file wrk.lua reads: each request preceded by a line with its byte length. */
export async function writeRequests(file: string, base: string, requests: HttpRequest[]): Promise<void> {
  const host = new URL(base).host;
  const parts = requests.map((request) => {
    const text = Buffer.from(raw(host, request));
    return Buffer.concat([Buffer.from(`${text.length}\n`), text]);
  });
  await writeFile(file, Buffer.concat(parts));
}

function runProcess(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${out}`))));
  });
}

const common = (connections: number, duration: number) => ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s'];

/**
 * Replays the prepared requests (writeRequests) in a cycle for `duration` seconds. With
 * `countStatuses`, every answer's status is checked (see wrk.lua); without, only answers >= 400.
 */
export async function runWrk(base: string, requestsFile: string, duration: number, connections: number, countStatuses: boolean): Promise<WrkResult> {
  const reportFile = `${requestsFile}.report.json`;
  const mode = countStatuses ? ['statuses'] : [];
  await runProcess([...common(connections, duration), '-s', SCRIPT, base, '--', requestsFile, reportFile, ...mode]);
  const report = JSON.parse(await readFile(reportFile, 'utf8')) as Report;
  const ms = (us: number) => us / 1000;
  return {
    rate: report.requests / (report.durationUs / 1e6),
    requests: report.requests,
    ok: report.ok,
    other: report.other,
    otherStatuses: report.otherStatuses,
    errors: report.errors,
    latencyMs: { p50: ms(report.latencyUs.p50), p90: ms(report.latencyUs.p90), p95: ms(report.latencyUs.p95), p99: ms(report.latencyUs.p99), max: ms(report.latencyUs.max) },
  };
}

/**
 * wrk in its static mode: one request sent over and over, the fastest wrk can load a server (a
 * script that only sets wrk.method, wrk.body and wrk.headers keeps wrk static). The bare route's
 * rate here is what the scripted runs must come near, or the generator is the limit.
 */
export async function runStaticWrk(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  duration: number,
  connections: number,
  workDir: string,
): Promise<number> {
  const script = path.join(workDir, 'static.lua');
  const lua = [
    `wrk.method = ${JSON.stringify(method)}`,
    ...(body === undefined ? [] : [`wrk.body = ${JSON.stringify(body)}`]),
    ...Object.entries(headers).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`),
  ];
  await writeFile(script, `${lua.join('\n')}\n`);
  const out = await runProcess([...common(connections, duration), '-s', script, url]);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match) throw new Error(`no rate in wrk's output: ${out}`);
  if (/Non-2xx or 3xx responses/.test(out)) throw new Error(`wrk static run had failed answers: ${out}`);
  return Number(match[1]);
}
