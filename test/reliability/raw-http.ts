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

/**
 * Sends a request with a body as a careful client does: on its own connection, in pieces, and
 * stops sending once the answer begins (a server refusing the body answers before reading it and
 * then closes). A broken pipe or a reset after the answer arrived is not an error: the answer is
 * parsed from what was read. Rejects with the socket's error only when no whole answer came.
 */
export function sendBody(base: URL, req: RawRequest & { body: Buffer }, timeoutMs: number): Promise<RawAnswer> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: base.hostname, port: Number(base.port) });
    const received: Buffer[] = [];
    let failure: Error | undefined;
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error) => (failure ??= error));
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = parseAnswer(Buffer.concat(received));
      if (answer) resolve({ ...answer, ms: performance.now() - began });
      else reject(failure ?? new Error('the connection closed without an answer'));
    });
    // A write can also throw a broken pipe at once, when the server has answered and closed
    // meanwhile: the socket is closed then, and the answer read so far is the answer.
    socket.on('connect', () =>
      void send().catch((error: Error) => {
        failure ??= error;
        socket.destroy();
      }),
    );
    const send = async () => {
      const framing = req.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(req.body.length) };
      const head = Object.entries({ host: base.host, ...req.headers, ...framing, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`${req.method} ${req.path} HTTP/1.1\r\n${head}\r\n`, 'latin1');
      const piece = 16 * 1024;
      for (let at = 0; at < req.body.length && received.length === 0 && !socket.destroyed; at += piece) {
        const part = req.body.subarray(at, at + piece);
        const framed = req.chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
        if (!socket.write(framed)) await new Promise((drained) => socket.once('drain', drained).once('close', drained));
      }
      if (req.chunked && received.length === 0 && !socket.destroyed) socket.write('0\r\n\r\n');
    };
  });
}

/** An HTTP/1.1 answer from its bytes (Content-Length or chunked), or undefined when it is not whole. */
function parseAnswer(bytes: Buffer): Omit<RawAnswer, 'ms'> | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return undefined;
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
      if (Number.isNaN(size)) return undefined;
      if (size === 0) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else {
    const length = Number(headers['content-length'] ?? 0);
    if (body.length < length) return undefined;
    body = body.subarray(0, length);
  }
  return { status: Number(status[1]), headers, text: body.toString('utf8') };
}
