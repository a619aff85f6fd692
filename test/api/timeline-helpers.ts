import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { enc, V2, type TestApp } from '../helpers.js';

export const TIMELINE = '/openapi/v2/timeline/v1';

/** GET an entity's timeline on DataHub's v2 path. */
export function timeline(t: TestApp, urn: string, query: string) {
  return t.call({ method: 'GET', url: `${TIMELINE}/${enc(urn)}?${query}` });
}

/**
 * Writes one aspect (v2, 200 expected), then lets the clock move on: versions written in the same
 * millisecond are one transaction, as in DataHub.
 */
export async function write(t: TestApp, urn: string, aspect: string, value: unknown): Promise<void> {
  const type = urn.split(':')[2];
  const res = await t.call({ method: 'POST', url: `${V2}/${type}/${enc(urn)}/${aspect}`, payload: value as object });
  assert.equal(res.status, 200, res.raw);
  await sleep(3);
}

/** When and by whom the N-th value of an aspect was written (its aspectModified). */
export async function writtenAt(t: TestApp, urn: string, aspect: string, version: number): Promise<{ timestamp: number; actor: string }> {
  const stored = await t.services.reader.getAspect(urn, aspect, version);
  assert.ok(stored, `${urn} ${aspect} has no version ${version}`);
  const { time, actor } = stored.systemMetadata.aspectModified;
  return { timestamp: time, actor };
}
