import { Client } from './client.js';

/**
 * Tells whether a request changed the catalog. Every committed change of an aspect is a
 * change-log event (written in the same transaction), so "no event after the last one seen" means
 * nothing changed; access tokens live beside the catalog and are compared by id and revocation.
 */
export class CatalogWatch {
  private lastEvent = 0;
  private tokens = '';

  constructor(private readonly client: Client) {}

  /** Takes everything up to now as seen. */
  async catchUp(): Promise<void> {
    for (;;) {
      const page = await this.client.call('GET', `/openapi/v2/events?after=${this.lastEvent}&limit=1000`);
      if (page.status !== 200) throw new Error(`reading the change log: ${page.status} ${JSON.stringify(page.body)}`);
      if (page.body.events.length === 0) break;
      this.lastEvent = page.body.nextAfter;
    }
    this.tokens = await this.tokenState();
  }

  /**
   * Waits until nothing more commits (a write may still be running), and takes it all as seen.
   * Quiet means 250 ms without a commit: with 50 ms, a cut-off write that committed late on a
   * loaded machine was blamed on the next request.
   */
  async settle(): Promise<void> {
    do {
      await this.catchUp();
      await new Promise((resolve) => setTimeout(resolve, 250));
    } while (await this.changes());
  }

  /** What changed since `catchUp` (undefined: nothing). */
  async changes(): Promise<string | undefined> {
    const page = await this.client.call('GET', `/openapi/v2/events?after=${this.lastEvent}&limit=5`);
    if (page.status !== 200) return `the change log could not be read: ${page.status}`;
    if (page.body.events.length > 0) {
      return `the change log moved: ${page.body.events.map((e: { changeType: string; urn: string; aspectName: string }) => `${e.changeType} ${e.urn} ${e.aspectName}`).join('; ')}`;
    }
    const tokens = await this.tokenState();
    return tokens === this.tokens ? undefined : `access tokens changed: ${this.tokens} → ${tokens}`;
  }

  /** How many events were seen: the number of committed aspect changes so far. */
  get events(): number {
    return this.lastEvent;
  }

  private async tokenState(): Promise<string> {
    const list = await this.client.call('GET', '/openapi/v2/auth/tokens');
    if (list.status !== 200) throw new Error(`listing tokens: ${list.status} ${JSON.stringify(list.body)}`);
    return JSON.stringify((list.body as Array<{ id: string; revokedAt?: unknown }>).map((t) => [t.id, t.revokedAt ?? null]).sort());
  }
}
