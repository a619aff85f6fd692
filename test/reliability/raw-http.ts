import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/** A request as the hostile-input suite sends it: any method, any path bytes, a body on any method. */
export interface RawRequest {
  method: string;
  /** Sent as is (characters U+0021–U+00FF: bytes above 0x7F go out raw, invalid UTF-8 included). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  ms: number;
}

/**
 * Sends one request, on its own connection unless an agent is given (an agent also decides the
 * source address); rejects when no answer comes within `timeoutMs`.
 */
export function send(base: URL, req: RawRequest, timeoutMs: number, agent: Agent | false = false): Promise<RawAnswer> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body && !req.chunked) headers['content-length'] = String(req.body.length);
    // Node frames a GET's or HEAD's body only when told to.
    if (req.body && req.chunked) headers['transfer-encoding'] = 'chunked';
    const outgoing = httpRequest({ host: base.hostname, port: base.port, method: req.method, path: req.path, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - began }));
      res.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', (error: Error & { rawPacket?: Buffer }) => {
      // A parse error of the answer: show what the server sent.
      if (error.rawPacket) error.message += ` (received ${JSON.stringify(error.rawPacket.toString('latin1').slice(0, 600))})`;
      reject(error);
    });
    if (req.body && req.chunked) {
      // Two chunks, so the server cannot know the size from the first one.
      const half = Math.floor(req.body.length / 2);
      outgoing.write(req.body.subarray(0, half));
      outgoing.end(req.body.subarray(half));
    } else {
      outgoing.end(req.body);
    }
  });
}

/**
 * Writes bytes to a fresh connection and half-closes it; resolves with the status codes of the
 * answers (none when the server closed without answering) once the server has closed it.
 */
export function sendBytes(base: URL, bytes: Buffer, timeoutMs: number): Promise<{ statuses: number[]; closedMs: number }> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: base.hostname, port: Number(base.port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection stayed open ${timeoutMs} ms after the client finished`));
    }, timeoutMs);
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {}); // a reset after the answer is the server hanging up: 'close' follows
    socket.on('close', () => {
      clearTimeout(timer);
      const statuses = [...Buffer.concat(chunks).toString('latin1').matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
      resolve({ statuses, closedMs: performance.now() - began });
    });
  });
}
