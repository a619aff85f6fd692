import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../src/errors.js';
import { LIMITS } from '../../src/limits.js';
import type { Reader } from '../../src/read/read.js';
import type { AspectVersion } from '../../src/store/store.js';
import { Timeline } from '../../src/timeline/timeline.js';

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,service.t,PROD)';
const WEEK = 7 * 24 * 60 * 60 * 1000;

/** A reader that answers `versions` and records what it was asked. */
function readerOf(versions: AspectVersion[], asked: Array<{ since: number; limit: number }> = []): Reader {
  return { history: async (_urn: string, since: number, limit: number) => (asked.push({ since, limit }), { urn, versions }) } as unknown as Reader;
}

const tagged = (time: number, version = 1): AspectVersion => ({ aspect: 'globalTags', version, latest: true, value: { tags: [{ tag: 'urn:li:tag:a' }] }, created: { time, actor: 'urn:li:corpuser:a' } });

describe('the timeline service', () => {
  it('reads from a week before the end by default, the end being now (startTime -1, endTime 0)', async () => {
    const asked: Array<{ since: number; limit: number }> = [];
    const now = 10 * WEEK;
    const service = new Timeline(readerOf([tagged(now - WEEK - 1)], asked), () => now);
    assert.deepEqual(await service.of({ urn, categories: ['TAG'] }), [], 'written before the week');
    assert.deepEqual(asked, [{ since: now - WEEK, limit: LIMITS.timelineVersions + 1 }]);
    assert.equal((await new Timeline(readerOf([tagged(now - WEEK)]), () => now).of({ urn, categories: ['TAG'], startTime: -1, endTime: 0 })).length, 1);
    assert.equal((await new Timeline(readerOf([tagged(now)]), () => now).of({ urn, categories: ['TAG'] })).length, 0, 'the end is exclusive');
  });

  it('refuses a window holding more versions than timelineVersions, naming the limit', async () => {
    const many = Array.from({ length: LIMITS.timelineVersions + 1 }, (_, i) => tagged(i, i + 1));
    await assert.rejects(
      new Timeline(readerOf(many)).of({ urn, categories: ['TAG'], startTime: 0 }),
      new ValidationError(`The timeline of ${urn} from 0 would read more than 5,000 aspect versions (limit timelineVersions): ask for a later startTime or an earlier endTime`),
    );
  });

  it('checks the categories before reading anything', async () => {
    const asked: Array<{ since: number; limit: number }> = [];
    await assert.rejects(new Timeline(readerOf([], asked)).of({ urn, categories: ['NOPE'] }), ValidationError);
    assert.deepEqual(asked, []);
  });
});
