import { datasetUrn, enc, V2 } from '../helpers.js';
import type { Answer, Client } from './client.js';
import { seeded } from '../seeded.js';

/** The kinds of request the mixed load sends. */
export const KINDS = ['post', 'batch', 'patch', 'getEntity', 'getAspect', 'search', 'scroll', 'evaluate', 'events'] as const;
export type RequestKind = (typeof KINDS)[number];

/** How often each kind is picked, relative to the others: about half writes, half reads. */
const WEIGHTS: Record<RequestKind, number> = { post: 20, batch: 8, patch: 15, getEntity: 12, getAspect: 10, search: 8, scroll: 7, evaluate: 10, events: 10 };
const ENTITIES_PER_BATCH = 4;
/** While the catalog grows, the share of POSTs that create a dataset not written before. */
const NEW_SHARE = 0.4;
/** Share of the other writes that go to a few hot datasets (long version histories, queued writers). */
const HOT_SHARE = 0.2;
const HOT_ENTITIES = 32;
const TAGS = Array.from({ length: 8 }, (_, i) => `urn:li:tag:memory${i}`);
const WORDS = ['orders', 'customers', 'payments', 'invoices', 'clicks', 'sessions', 'refunds', 'stock', 'shipments', 'returns', 'ledger', 'audit', 'users', 'events', 'metrics', 'churn'];

export const MEMORY_TEST = 'urn:li:test:reliability.memory';

/** Figures of a run, added up over every loop and every phase they are passed to. */
export interface LoadFigures {
  sent: Record<RequestKind, number>;
  /** Answers other than 2xx, as `<kind> <status>` → how many. */
  non2xx: Map<string, number>;
  /** 5xx answers (a failure). */
  serverErrors: number;
  /** Requests that got no answer: refused, reset or timed out (a failure). */
  connectionErrors: number;
  /** The first few failures and unexpected answers, described. */
  examples: string[];
}

export function emptyLoadFigures(): LoadFigures {
  return { sent: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<RequestKind, number>, non2xx: new Map(), serverErrors: 0, connectionErrors: 0, examples: [] };
}

export function totalSent(figures: LoadFigures): number {
  return KINDS.reduce((sum, kind) => sum + figures.sent[kind], 0);
}

/** `post 1234, batch 456, …` */
export function describeSent(figures: LoadFigures): string {
  return KINDS.map((kind) => `${kind} ${figures.sent[kind]}`).join(', ');
}

/** `none`, or `getAspect 404 × 3, …` */
export function describeNon2xx(figures: LoadFigures): string {
  return figures.non2xx.size === 0 ? 'none' : [...figures.non2xx].map(([key, n]) => `${key} × ${n}`).join(', ');
}

/**
 * Many client loops sending a realistic mix to one server: single-aspect POSTs, batch POSTs and
 * JSON patches, with a share of them on a few hot datasets; entity and aspect reads; free-text and
 * filtered searches; metadata test evaluations that push their results; change-log reads. While
 * `grow` is on, POSTs also create new datasets, up to `entities` of them. Reads, patches and
 * evaluations only name datasets whose properties were acknowledged, so every answer is expected
 * to be a 2xx.
 */
export class MixedLoad {
  /** Indexes of the datasets whose datasetProperties the server acknowledged. */
  private readonly known: number[] = [];
  private readonly knownSet = new Set<number>();
  private loops = 0;
  /** The next dataset never written. */
  private next = 0;

  constructor(
    private readonly client: Client,
    /** Distinct datasets written over the whole run. */
    private readonly entities: number,
  ) {}

  /** Saves the metadata test the evaluations run (it also runs after commits: tests on change are on by default). */
  async prepare(): Promise<void> {
    const definition = {
      on: { types: ['dataset'], conditions: { property: 'dataPlatformInstance.platform', operator: 'equals', value: 'urn:li:dataPlatform:hive' } },
      rules: { and: [{ property: 'datasetProperties.description', operator: 'exists' }, { property: 'globalTags.tags.tag', operator: 'contains_any', values: TAGS.slice(0, 4) }] },
      actions: { passing: [{ type: 'ADD_TAGS', params: { values: ['urn:li:tag:memoryCompliant'] } }], failing: [{ type: 'REMOVE_TAGS', params: { values: ['urn:li:tag:memoryCompliant'] } }] },
    };
    const saved = await this.client.call('POST', `${V2}/test/${enc(MEMORY_TEST)}/testInfo`, {
      name: 'Described and tagged',
      category: 'Governance',
      definition: { type: 'JSON', json: JSON.stringify(definition) },
    });
    if (saved.status !== 200) throw new Error(`saving the metadata test answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  }

  /**
   * Runs `clients` loops until `durationMs` has passed, adding what happened to `figures`. With
   * `grow`, the catalog grows (until it holds `entities` datasets); without, the datasets written
   * so far are rewritten and read.
   */
  async run(clients: number, durationMs: number, figures: LoadFigures, grow: boolean): Promise<void> {
    const deadline = Date.now() + durationMs;
    this.grow = grow;
    await Promise.all(Array.from({ length: clients }, () => this.loop(this.loops++, deadline, figures)));
  }

  private grow = true;

  private async loop(id: number, deadline: number, figures: LoadFigures): Promise<void> {
    // Seeded: each loop's choices are the same from run to run.
    const rand = seeded(0x5eed + id);
    const total = KINDS.reduce((sum, kind) => sum + WEIGHTS[kind], 0);
    let cursor = 0;
    while (Date.now() < deadline) {
      let pick = rand() * total;
      let kind: RequestKind = KINDS[0];
      for (const k of KINDS) {
        kind = k;
        if ((pick -= WEIGHTS[k]) < 0) break;
      }
      // Reads, patches and evaluations need a dataset that exists: write first.
      if (this.known.length < 50 && kind !== 'batch') kind = 'post';
      figures.sent[kind]++;
      let answer: Answer;
      try {
        answer = await this.send(kind, rand, cursor);
      } catch (error) {
        figures.connectionErrors++;
        if (figures.examples.length < 10) figures.examples.push(`${kind}: no answer (${(error as Error).message}; ${String((error as Error).cause ?? '')})`);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) {
        if (kind === 'events') cursor = answer.body.nextAfter;
        continue;
      }
      const key = `${kind} ${answer.status}`;
      figures.non2xx.set(key, (figures.non2xx.get(key) ?? 0) + 1);
      if (answer.status >= 500) figures.serverErrors++;
      if (figures.examples.length < 10) figures.examples.push(`${key}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
  }

  private async send(kind: RequestKind, rand: () => number, cursor: number): Promise<Answer> {
    const client = this.client;
    switch (kind) {
      case 'post': {
        const i = this.writeTarget(rand);
        const answer = await client.call('POST', `${V2}/dataset/${enc(urnOf(i))}/datasetProperties`, properties(i, rand));
        if (answer.status === 200) this.acknowledge(i);
        return answer;
      }
      case 'batch': {
        const indexes = Array.from({ length: ENTITIES_PER_BATCH }, () => this.writeTarget(rand));
        const answer = await client.call(
          'POST',
          `${V2}/dataset?async=false`,
          [...new Set(indexes)].map((i) => ({
            urn: urnOf(i),
            aspects: { datasetProperties: { value: properties(i, rand) }, globalTags: { value: { tags: pickTags(rand).map((tag) => ({ tag })) } } },
          })),
        );
        if (answer.status === 200) indexes.forEach((i) => this.acknowledge(i));
        return answer;
      }
      case 'patch': {
        // Keyed by tag, so repeated patches add or remove a tag rather than append duplicates without end.
        const tag = TAGS[Math.floor(rand() * TAGS.length)];
        const op = rand() < 0.7 ? { op: 'add', path: `/tags/${tag}`, value: { tag } } : { op: 'remove', path: `/tags/${tag}` };
        return client.call(
          'PATCH',
          `${V2}/dataset/${enc(urnOf(this.knownTarget(rand)))}/globalTags`,
          { patch: [op], arrayPrimaryKeys: { tags: ['tag'] } },
          { 'content-type': 'application/json-patch+json' },
        );
      }
      case 'getEntity':
        return client.call('GET', `${V2}/dataset/${enc(urnOf(this.knownTarget(rand)))}${rand() < 0.5 ? '?systemMetadata=true' : ''}`);
      case 'getAspect':
        return client.call('GET', `${V2}/dataset/${enc(urnOf(this.knownTarget(rand)))}/datasetProperties${rand() < 0.3 ? '?version=1' : ''}`);
      case 'search': {
        const word = WORDS[Math.floor(rand() * WORDS.length)];
        const queries = [word, `${word.slice(0, 3)} ${WORDS[Math.floor(rand() * WORDS.length)]}`, `name:${word}* AND tags:memory${Math.floor(rand() * 8)}`, '*'];
        const query = queries[Math.floor(rand() * queries.length)];
        return client.call('GET', `${V2}/dataset?query=${enc(query)}&count=${rand() < 0.8 ? 10 : 100}${rand() < 0.3 ? '&sortCriteria=name' : ''}`);
      }
      case 'scroll': {
        const body = {
          entities: ['dataset'],
          aspects: ['datasetProperties', 'globalTags'],
          filter: { and: [{ criteria: [{ field: 'tags', condition: 'EQUAL', values: [TAGS[Math.floor(rand() * TAGS.length)]] }] }] },
          facets: ['platform', 'tags'],
        };
        const query = enc(WORDS[Math.floor(rand() * WORDS.length)]);
        return rand() < 0.5 ? client.call('POST', `/openapi/v3/entity/scroll?query=${query}&count=20`, body) : client.call('POST', `/openapi/v2/entity/scroll?count=20`, body);
      }
      case 'evaluate':
        return client.call('POST', '/gms/test?action=evaluate', { urn: urnOf(this.knownTarget(rand)), push: true });
      case 'events': {
        // Mostly follow the log; now and then re-read from further back, as a consumer catching up would.
        const after = rand() < 0.25 ? Math.floor(rand() * cursor) : cursor;
        return client.call('GET', `/openapi/v2/events?after=${after}&limit=100`);
      }
    }
  }

  /** A new dataset while the catalog grows, else a hot one or any written one. */
  private writeTarget(rand: () => number): number {
    if ((this.known.length < 50 || (this.grow && rand() < NEW_SHARE)) && this.next < this.entities) return this.next++;
    return rand() < HOT_SHARE ? Math.floor(rand() * HOT_ENTITIES) : this.knownTarget(rand);
  }

  private knownTarget(rand: () => number): number {
    return this.known[Math.floor(rand() * this.known.length)];
  }

  private acknowledge(i: number): void {
    if (this.knownSet.has(i)) return;
    this.knownSet.add(i);
    this.known.push(i);
  }

  /** How many distinct datasets have properties so far. */
  get written(): number {
    return this.known.length;
  }
}

function urnOf(i: number): string {
  return datasetUrn(`memory.load.e${i}`);
}

/** A name of two words and a description of 0–800 characters; one dataset in five has none (the test fails it). */
function properties(i: number, rand: () => number): { name: string; description?: string; customProperties: Record<string, string> } {
  const name = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${i}`;
  const customProperties = { team: WORDS[i % 5], written: String(Math.floor(rand() * 1e9)) };
  if (rand() < 0.2) return { name, customProperties };
  const words = Array.from({ length: Math.floor(rand() * 100) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
  return { name, description: `${name}: ${words.join(' ')}`, customProperties };
}

function pickTags(rand: () => number): string[] {
  return [...new Set(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => TAGS[Math.floor(rand() * TAGS.length)]))];
}
