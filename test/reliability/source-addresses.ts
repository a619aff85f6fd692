import { Agent, type IncomingHttpHeaders } from 'node:http';
import { send as sendRaw } from './raw-http.js';

/** A request of the security suite: a path, a method, a JSON body, and its Authorization header. */
export interface SecurityRequest {
  method: string;
  path: string;
  /** Sent as JSON; a string goes as it is (to send broken JSON). */
  body?: unknown;
  /** The Authorization header as sent (undefined: none). */
  authorization?: string;
  headers?: Record<string, string>;
}

export interface SecurityAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body parsed when it is JSON, else its text ('' for none). */
  body: unknown;
  text: string;
}

/** Sends one request through `agent` (which decides the connection's source address). */
export async function send(base: URL, agent: Agent, req: SecurityRequest): Promise<SecurityAnswer> {
  const body = req.body === undefined ? undefined : Buffer.from(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
  const headers: Record<string, string> = { ...req.headers };
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  if (body) headers['content-type'] ??= 'application/json';
  const answer = await sendRaw(base, { method: req.method, path: req.path, headers, body }, 30_000, agent);
  const json = String(answer.headers['content-type'] ?? '').includes('json') && answer.text !== '';
  return { status: answer.status, headers: answer.headers, body: json ? JSON.parse(answer.text) : answer.text, text: answer.text };
}

/**
 * Loopback source addresses for requests that fail authentication. The limiter answers 429 past
 * 20 failures a minute from one address and `serve` has no option to raise that, so each address
 * here carries at most `perAddress` failures and the 401s themselves reach the client. On Linux
 * all of 127.0.0.0/8 is loopback: any of its addresses can be a connection's source.
 */
export class SourceAddresses {
  private readonly agents: Agent[] = [];
  private failuresOnLast = 0;

  constructor(
    private readonly perAddress = 15,
    /** The second octet of the addresses handed out (e.g. 10 → 127.10.x.y), so pools never share one. */
    private readonly block = 10,
  ) {}

  /** An agent on an address that can take one more failure without reaching the limit. */
  forFailure(): Agent {
    if (this.agents.length === 0 || this.failuresOnLast >= this.perAddress) {
      this.agents.push(agentFrom(this.address(this.agents.length)));
      this.failuresOnLast = 0;
    }
    this.failuresOnLast++;
    return this.agents[this.agents.length - 1];
  }

  /** How many addresses were used. */
  get used(): number {
    return this.agents.length;
  }

  destroy(): void {
    for (const agent of this.agents) agent.destroy();
  }

  private address(n: number): string {
    // Host parts 1..250: no .0 or .255 addresses, which some tools treat specially.
    return `127.${this.block}.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
  }
}

/** A keep-alive agent whose connections come from `localAddress`. */
export function agentFrom(localAddress: string): Agent {
  return new Agent({ keepAlive: true, localAddress });
}
