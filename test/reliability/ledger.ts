import { isDeepStrictEqual } from 'node:util';
import { datasetUrn, enc, V2 } from '../helpers.js';
import type { Answer, Client } from './client.js';

/** What a key (an entity's aspect) holds: its value and version; version 0 is "absent". */
export interface AspectState {
  value: unknown;
  version: number;
}

const ABSENT: AspectState = { value: undefined, version: 0 };

/** Figures of a crash run, over all writers. */
export interface CrashFigures {
  /** Write requests answered 2xx. */
  acknowledged: number;
  /** Write requests cut off by a kill (no answer): each may or may not have committed. */
  unanswered: number;
  /** Of those, the ones found committed after the restart (all of the request, never part). */
  unansweredCommitted: number;
  /** Answers other than 2xx (must stay empty). */
  unexpected: string[];
  /** Keys whose acknowledged state was not found after a restart (must stay empty). */
  lost: string[];
}

export function emptyFigures(): CrashFigures {
  return { acknowledged: 0, unanswered: 0, unansweredCommitted: 0, unexpected: [], lost: [] };
}

/** A write in flight: the keys it touches, and their state if it commits. */
interface Attempt {
  keys: Array<{ urn: string; aspect: string; ifCommitted: AspectState }>;
}

/**
 * One client writing continuously to its own entities (single POSTs, JSON patches, batches) and
 * keeping a ledger of what the server acknowledged. Only this writer writes its keys, so the
 * ledger is exactly what the catalog must hold. A request cut off by a kill is settled after the
 * restart: all its keys must hold the old state or all the new one.
 */
export class Writer {
  private readonly ledger = new Map<string, AspectState>();
  private n = 0;

  constructor(
    private readonly id: number,
    private readonly client: Client,
    private readonly figures: CrashFigures,
  ) {}

  /** Writes until `stopped()`; rides out kills of the server. */
  async run(stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      const attempt = this.next();
      let answer: Answer;
      try {
        answer = await this.send(attempt);
      } catch (error) {
        // A refused connection (the server is down) was never sent; anything else was cut off mid-way.
        if (!refused(error)) this.figures.unanswered++;
        await this.untilServing();
        await this.settle(attempt.attempt);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) {
        this.acknowledge(attempt.attempt, answer);
      } else {
        this.figures.unexpected.push(`${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
  }

  /** Every key this writer was acknowledged holds exactly the acknowledged value and version. */
  async verify(): Promise<void> {
    for (const [key, expected] of this.ledger) {
      const [urn, aspect] = splitKey(key);
      const found = await this.read(urn, aspect);
      if (!sameState(found, expected)) this.figures.lost.push(`${key}: expected ${show(expected)}, found ${show(found)}`);
    }
  }

  /** The acknowledged entities, by the name their datasetProperties carry (for search checks). */
  names(): Map<string, string> {
    const names = new Map<string, string>();
    for (const [key, state] of this.ledger) {
      const [urn, aspect] = splitKey(key);
      if (aspect === 'datasetProperties' && state.version > 0) names.set(urn, (state.value as { name: string }).name);
    }
    return names;
  }

  private next(): { attempt: Attempt; request: [string, string, unknown] } {
    const n = ++this.n;
    const roll = n % 5;
    if (roll === 4) return this.batch(n);
    const urn = datasetUrn(`crash.w${this.id}.e${n % 7}`);
    return roll % 2 === 0 ? this.post(urn, n) : this.patch(urn, n);
  }

  private post(urn: string, n: number) {
    const value = { name: `w${this.id}n${n}`, customProperties: { writer: String(this.id), n: String(n) } };
    const before = this.state(urn, 'datasetProperties');
    return {
      attempt: { keys: [{ urn, aspect: 'datasetProperties', ifCommitted: { value, version: before.version + 1 } }] },
      request: ['POST', `${V2}/dataset/${enc(urn)}/datasetProperties?systemMetadata=true`, value] as [string, string, unknown],
    };
  }

  private patch(urn: string, n: number) {
    const tag = { tag: `urn:li:tag:w${this.id}n${n}` };
    const before = this.state(urn, 'globalTags');
    const tags = before.version > 0 ? (before.value as { tags: unknown[] }).tags : [];
    return {
      attempt: { keys: [{ urn, aspect: 'globalTags', ifCommitted: { value: { tags: [...tags, tag] }, version: before.version + 1 } }] },
      request: ['PATCH', `${V2}/dataset/${enc(urn)}/globalTags?systemMetadata=true`, { patch: [{ op: 'add', path: '/tags/-', value: tag }] }] as [
        string,
        string,
        unknown,
      ],
    };
  }

  /** Three new entities, two aspects each, in one request: all or nothing. */
  private batch(n: number) {
    const items = [0, 1, 2].map((i) => ({
      urn: datasetUrn(`crash.w${this.id}.b${n}.${i}`),
      aspects: { datasetProperties: { value: { name: `w${this.id}b${n}i${i}` } }, globalTags: { value: { tags: [{ tag: `urn:li:tag:batch${n}` }] } } },
    }));
    const keys = items.flatMap((item) =>
      Object.entries(item.aspects).map(([aspect, { value }]) => ({ urn: item.urn, aspect, ifCommitted: { value, version: 1 } })),
    );
    return { attempt: { keys }, request: ['POST', `${V2}/dataset?async=false&systemMetadata=true`, items] as [string, string, unknown] };
  }

  private send(attempt: { request: [string, string, unknown] }): Promise<Answer> {
    const [method, path, body] = attempt.request;
    return this.client.call(method, path, body);
  }

  /** A 2xx: the answer must show the state the ledger expects, which becomes the truth. */
  private acknowledge(attempt: Attempt, answer: Answer): void {
    this.figures.acknowledged++;
    const entities: Array<{ urn: string; aspects: Record<string, { value: unknown; systemMetadata: { version: string } }> }> = Array.isArray(answer.body)
      ? answer.body
      : [answer.body];
    for (const key of attempt.keys) {
      const shown = entities.find((e) => e.urn === key.urn)?.aspects[key.aspect];
      const state = shown ? { value: shown.value, version: Number(shown.systemMetadata.version) } : ABSENT;
      if (!sameState(state, key.ifCommitted)) {
        this.figures.unexpected.push(`answer for ${key.urn} ${key.aspect}: expected ${show(key.ifCommitted)}, got ${show(state)}`);
      }
      this.ledger.set(keyOf(key.urn, key.aspect), state);
    }
  }

  /** After a kill: the cut-off write committed whole or not at all, and the ledger follows what is there. */
  private async settle(attempt: Attempt): Promise<void> {
    const found = await Promise.all(attempt.keys.map((k) => this.read(k.urn, k.aspect)));
    const committed = attempt.keys.every((k, i) => sameState(found[i], k.ifCommitted));
    const untouched = attempt.keys.every((k, i) => sameState(found[i], this.state(k.urn, k.aspect)));
    if (!committed && !untouched) {
      const detail = attempt.keys.map((k, i) => `${k.urn} ${k.aspect}: ${show(found[i])}`).join('; ');
      this.figures.lost.push(`a write cut off by a kill is half there or changed: ${detail}`);
    }
    if (committed) this.figures.unansweredCommitted++;
    attempt.keys.forEach((k, i) => this.ledger.set(keyOf(k.urn, k.aspect), found[i]));
  }

  private state(urn: string, aspect: string): AspectState {
    return this.ledger.get(keyOf(urn, aspect)) ?? ABSENT;
  }

  private async read(urn: string, aspect: string): Promise<AspectState> {
    for (;;) {
      try {
        const answer = await this.client.call('GET', `${V2}/dataset/${enc(urn)}/${aspect}?systemMetadata=true`);
        if (answer.status === 404) return ABSENT;
        if (answer.status === 200) return { value: answer.body.value, version: Number(answer.body.systemMetadata.version) };
        throw new Error(`GET ${urn} ${aspect}: ${answer.status} ${JSON.stringify(answer.body)}`);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('GET ')) throw error;
        await this.untilServing();
      }
    }
  }

  private async untilServing(): Promise<void> {
    for (;;) {
      const up = await this.client.call('GET', '/health').then((a) => a.status === 200, () => false);
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function refused(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
}

function keyOf(urn: string, aspect: string): string {
  return `${urn} ${aspect}`;
}

function splitKey(key: string): [string, string] {
  const at = key.lastIndexOf(' ');
  return [key.slice(0, at), key.slice(at + 1)];
}

function sameState(a: AspectState, b: AspectState): boolean {
  return a.version === b.version && isDeepStrictEqual(a.value, b.value);
}

function show(state: AspectState): string {
  return state.version === 0 ? 'absent' : `v${state.version} ${JSON.stringify(state.value)}`;
}
