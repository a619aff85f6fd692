import type { Agent } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { expectedAnswer, mismatch, type Credential, type MatrixRoute } from './auth-matrix.js';
import { send, type SecurityAnswer, type SourceAddresses } from './source-addresses.js';

/** What a run of the matrix under load saw. */
export interface MatrixFigures {
  requests: number;
  /** Answers other than the matrix's, described (all of them: the test prints the first few). */
  mismatches: string[];
  /** Answers by status. */
  statuses: Map<number, number>;
  /** Token ids whose revoke was allowed (204), and those whose revoke was refused. */
  revokedVictims: string[];
  keptVictims: string[];
  /** Secrets of the tokens the matrix's allowed creates made (they must stay out of the log). */
  createdSecrets: string[];
}

export interface MatrixRun {
  base: URL;
  routes: MatrixRoute[];
  credentials: Credential[];
  rounds: number;
  inFlight: number;
  /** Valid tokens connect through this agent; failing credentials through `sources`. */
  agent: Agent;
  sources: SourceAddresses;
}

/** Every route with every credential, `rounds` times, shuffled, `inFlight` at a time. */
export async function runMatrix(run: MatrixRun): Promise<MatrixFigures> {
  const figures: MatrixFigures = { requests: 0, mismatches: [], statuses: new Map(), revokedVictims: [], keptVictims: [], createdSecrets: [] };
  const jobs = shuffle(Array.from({ length: run.rounds }, () => run.routes.flatMap((route) => run.credentials.map((credential) => ({ route, credential })))).flat());
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const { route, credential } = jobs[next++];
      const { victim, ...request } = route.request();
      const expected = expectedAnswer(route, credential);
      const answer = await send(run.base, expected.fails ? run.sources.forFailure() : run.agent, { ...request, authorization: credential.authorization });
      figures.requests++;
      figures.statuses.set(answer.status, (figures.statuses.get(answer.status) ?? 0) + 1);
      const wrong = mismatch(request.method, expected, answer);
      if (wrong) figures.mismatches.push(`${route.name} with ${credential.name}: ${wrong}`);
      if (victim) (expected.status === 204 ? figures.revokedVictims : figures.keptVictims).push(victim);
      const created = secretIn(answer);
      if (created) figures.createdSecrets.push(created);
    }
  };
  await Promise.all(Array.from({ length: run.inFlight }, lane));
  return figures;
}

/** Background traffic while the matrix runs; `stop()` ends it and answers what it did. */
export interface Background {
  stop(): Promise<{ writes: number; churns: number; failures: string[]; secrets: string[] }>;
}

export interface BackgroundOptions {
  base: URL;
  agent: Agent;
  /** Where the churn's refused requests come from. */
  sources: SourceAddresses;
  /** An editor token for the writers, and an admin token for the churn. */
  writerToken: string;
  adminToken: string;
  writers: number;
}

/**
 * `writers` loops writing datasetProperties (the matrix's dataset among others), and one loop
 * that creates a token, uses it, revokes it and checks it is refused at once.
 */
export function startBackground({ base, agent, sources, writerToken, adminToken, writers }: BackgroundOptions): Background {
  let running = true;
  let writes = 0;
  let churns = 0;
  const failures: string[] = [];
  const secrets: string[] = [];
  const call = (authorization: string, method: string, path: string, body?: unknown, via = agent) => send(base, via, { method, path, body, authorization: `Bearer ${authorization}` });
  const expect = (what: string, answer: SecurityAnswer, status: number, body?: unknown) => {
    if (answer.status !== status || (body !== undefined && !isDeepStrictEqual(answer.body, body))) failures.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  };
  const loops = Array.from({ length: writers }, async (_, w) => {
    for (let n = 0; running; n++) {
      const name = n % 4 === 0 ? 'reliability.security.matrix' : `reliability.security.writer${w}.${n % 16}`;
      expect('a background write', await call(writerToken, 'POST', `${V2}/dataset/${enc(datasetUrn(name))}/datasetProperties`, { description: `write ${n} of writer ${w}` }), 200);
      writes++;
    }
  });
  loops.push(
    (async () => {
      for (let n = 0; running; n++) {
        const made = await call(adminToken, 'POST', '/openapi/v2/auth/tokens', { name: `churn${n}`, role: 'viewer' });
        expect('creating a churn token', made, 201);
        const { id, token } = made.body as { id: string; token: string };
        secrets.push(token);
        expect('a fresh churn token', await call(token, 'GET', '/openapi/v2/events?limit=1'), 200);
        expect('revoking a churn token', await call(adminToken, 'DELETE', `/openapi/v2/auth/tokens/${id}`), 204);
        // Revoked through this process: refused from the very next request on.
        const refused = await call(token, 'GET', '/openapi/v2/events?limit=1', undefined, sources.forFailure());
        expect('a churn token just revoked', refused, 401, { error: 'Unauthorized', message: 'Invalid, expired or revoked token' });
        churns++;
      }
    })(),
  );
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { writes, churns, failures, secrets };
    },
  };
}

function secretIn(answer: SecurityAnswer): string | undefined {
  const body = answer.body as { token?: unknown } | undefined;
  return answer.status === 201 && typeof body?.token === 'string' ? body.token : undefined;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
