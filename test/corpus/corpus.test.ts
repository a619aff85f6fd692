import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { enc, testApp, V2, type TestApp } from '../helpers.js';
import { pyDumps, pythonHeaders } from '../restli/clients.js';
import { buildCorpus, readBackAs, type CorpusEntity, type WritePath } from './corpus.js';

/**
 * DataHub's whole model end to end: the corpus (corpus.ts) written through each of OpenAPI v2,
 * OpenAPI v3, Rest.li ingestProposalBatch and MCE snapshots (batchIngest), batched, then every
 * value read back value-identical on v2, v3 and Rest.li (entitiesV2; snapshots on GET
 * /entities/{urn}); timeseries aspects through getTimeseriesAspectValues and v3's latest point.
 */

const PATHS: readonly WritePath[] = ['v2', 'v3', 'restli', 'mce'];
const json = (payload: unknown): InjectOptions['payload'] => payload as InjectOptions['payload'];

describe("the corpus: every entity type and aspect of DataHub's model, written four ways and read three", () => {
  let t: TestApp;
  const corpora = new Map<WritePath, CorpusEntity[]>();
  before(async () => {
    t = await testApp({ bodyLimit: 16 * 1024 * 1024 });
    for (const path of PATHS) corpora.set(path, buildCorpus(t.services.registry, path));
  });
  after(() => t.app.close());

  const ok = async (request: InjectOptions, what: string) => {
    const res = await t.call(request);
    assert.ok(res.status === 200 || res.status === 201, `${what}: ${res.status} ${res.raw.slice(0, 600)}`);
    return res;
  };
  const isTimeseries = (entity: CorpusEntity, aspect: string) => entity.entity.aspects.get(aspect)!.kind === 'timeseries';

  it('touches every entity type and every aspect of the registry', () => {
    const { registry } = t.services;
    const types = new Set<string>();
    const aspects = new Set<string>();
    for (const path of ['v2', 'v3', 'restli'] as const) {
      for (const entity of corpora.get(path)!) {
        types.add(entity.entity.name);
        for (const name of entity.aspects.keys()) aspects.add(name);
      }
    }
    assert.equal(types.size, 56);
    // 199 generated from DataHub's model, and structuredPropertySettings from the overlay of its newer model.
    assert.equal(aspects.size, 200);
    assert.deepEqual([...aspects].sort(), [...new Set(registry.entityTypes().flatMap((e) => [...e.aspects.keys()]))].sort());
    assert.equal([...aspects].filter((name) => registry.entityTypes().some((e) => e.aspects.get(name)?.kind === 'timeseries')).length, 10);
    const mce = corpora.get('mce')!;
    assert.equal(mce.length, 21);
    assert.equal(mce.reduce((n, e) => n + e.aspects.size, 0), registry.snapshots().reduce((n, s) => n + s.aspects.length, 0));
  });

  it('writes through OpenAPI v2 (a batch per entity type), v3 (one generic batch), Rest.li (one ingestProposalBatch) and MCE snapshots (one batchIngest)', async () => {
    for (const { entity, urn, aspects } of corpora.get('v2')!) {
      const body = [{ urn, aspects: Object.fromEntries([...aspects].map(([name, value]) => [name, { value }])) }];
      await ok({ method: 'POST', url: `${V2}/${entity.name}?async=false`, payload: json(body) }, `v2 ${entity.name}`);
    }
    const generic: Record<string, unknown[]> = {};
    for (const { entity, urn, aspects } of corpora.get('v3')!) {
      (generic[entity.name] ??= []).push({ urn, ...Object.fromEntries([...aspects].map(([name, value]) => [name, { value }])) });
    }
    await ok({ method: 'POST', url: '/openapi/v3/entity/generic?async=false', payload: json(generic) }, 'v3 generic batch');
    const proposals = corpora.get('restli')!.flatMap(({ entity, urn, aspects }) =>
      [...aspects].map(([aspectName, value]) => ({
        entityType: entity.name,
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      })),
    );
    await ok({ method: 'POST', url: '/aspects?action=ingestProposalBatch', headers: pythonHeaders(), payload: pyDumps({ proposals, async: 'false' }) }, 'ingestProposalBatch');
    const { registry } = t.services;
    const entities = corpora.get('mce')!.map(({ entity, urn, aspects }) => ({
      value: { [registry.snapshotOf(entity)!.name]: { urn, aspects: [...aspects].map(([name, value]) => ({ [entity.aspects.get(name)!.pegasusClass!]: value })) } },
    }));
    await ok({ method: 'POST', url: '/entities?action=batchIngest', headers: pythonHeaders(), payload: pyDumps({ entities }) }, 'batchIngest');
  });

  for (const path of PATHS) {
    it(`reads every value written through ${path} back on v2, v3 and Rest.li`, async () => {
      for (const corpusEntity of corpora.get(path)!) {
        const { entity, urn, aspects } = corpusEntity;
        const v2 = (await ok({ method: 'GET', url: `${V2}/${entity.name}/${enc(urn)}` }, `v2 read ${urn}`)).body.aspects;
        const v3 = (await ok({ method: 'GET', url: `/openapi/v3/entity/${entity.name.toLowerCase()}/${enc(urn)}` }, `v3 read ${urn}`)).body;
        const restli = (await ok({ method: 'GET', url: `/entitiesV2/${enc(urn)}`, headers: pythonHeaders() }, `entitiesV2 ${urn}`)).body.aspects;
        for (const [name, written] of aspects) {
          const expected = readBackAs(name, written);
          const where = `${path}: ${name} of ${urn}`;
          assert.deepEqual(v3[name]?.value, expected, `v3, ${where}`);
          if (isTimeseries(corpusEntity, name)) {
            const points = await ok(
              {
                method: 'POST',
                url: '/aspects?action=getTimeseriesAspectValues',
                headers: pythonHeaders(),
                payload: pyDumps({ urn, entity: entity.name, aspect: name, latestValue: true }),
              },
              `timeseries ${where}`,
            );
            const values = points.body.value.values as Array<{ aspect: { value: string } }>;
            assert.equal(values.length, 1, where);
            assert.deepEqual(JSON.parse(values[0].aspect.value), expected, `getTimeseriesAspectValues, ${where}`);
            continue;
          }
          assert.deepEqual(v2[name]?.value, expected, `v2, ${where}`);
          assert.deepEqual(restli[name]?.value, expected, `entitiesV2, ${where}`);
        }
        if (path === 'mce') await snapshotReadsBack(corpusEntity);
      }
    });
  }

  /** GET /entities/{urn} answers the snapshot as written (what the entity got by default besides). */
  async function snapshotReadsBack({ entity, urn, aspects }: CorpusEntity): Promise<void> {
    const spec = t.services.registry.snapshotOf(entity)!;
    const res = await ok({ method: 'GET', url: `/entities/${enc(urn)}`, headers: pythonHeaders() }, `snapshot ${urn}`);
    const members = res.body.value[spec.name].aspects as Array<Record<string, unknown>>;
    const byClass = new Map(members.map((m) => [Object.keys(m)[0], Object.values(m)[0]]));
    for (const [name, written] of aspects) {
      assert.deepEqual(byClass.get(entity.aspects.get(name)!.pegasusClass!), readBackAs(name, written), `snapshot read: ${name} of ${urn}`);
    }
  }
});
