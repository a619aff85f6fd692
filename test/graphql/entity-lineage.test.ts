import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, testApp, type TestApp, upstreams } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { graphql, latestReads } from './queries.js';

/**
 * `lineage` and `relationships` on entities (both stores): raw → clean → mart (mart also reads
 * raw), a job reading mart and writing export, clean also reading a dataset never stored (a
 * ghost), a soft-deleted dataset downstream of raw; raw owned and tagged.
 */

const raw = datasetUrn('el.raw');
const clean = datasetUrn('el.clean');
const mart = datasetUrn('el.mart');
const exported = datasetUrn('el.export', 's3');
const ghost = datasetUrn('el.ghost');
const gone = datasetUrn('el.gone');
const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,el_flow,prod),copy)';
const JDOE = 'urn:li:corpuser:jdoe';
const PII = 'urn:li:tag:pii';

const COUNTS = `query counts($urn: String!) { dataset(urn: $urn) {
  upstream: lineage(input: {direction: UPSTREAM, start: 0, count: 0}) { start count total filtered relationships { type } }
  downstream: lineage(input: {direction: DOWNSTREAM, start: 0, count: 0}) { total }
} }`;
const LINEAGE = `query lineage($urn: String!, $input: LineageInput!) { entity(urn: $urn) { urn ... on EntityWithRelationships { lineage(input: $input) {
  start count total filtered
  relationships { type degree entity { urn type } createdOn createdActor { urn } updatedOn updatedActor { urn } isManual paths { path { urn } } }
} } } }`;
const RELATIONSHIPS = `query related($urn: String!, $input: RelationshipsInput!) { entity(urn: $urn) { relationships(input: $input) {
  start count total relationships { type direction entity { urn type } }
} } }`;

describe('GraphQL lineage and relationships of entities', () => {
  let t: TestApp;
  const run = async (query: string, variables: Record<string, unknown>) => {
    const { status, body } = await graphql(t, query, variables);
    assert.equal(status, 200);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data;
  };
  const lineage = async (urn: string, input: Record<string, unknown>) => (await run(LINEAGE, { urn, input })).entity.lineage;
  const related = async (urn: string, input: Record<string, unknown>) => (await run(RELATIONSHIPS, { urn, input })).entity.relationships;
  const urnsOf = (page: { relationships: Array<{ entity: { urn: string } }> }) => page.relationships.map((r) => r.entity.urn);

  before(async () => {
    t = await testApp();
    for (const urn of [raw, exported]) await write(t, 'dataset', urn, 'datasetProperties', { name: urn });
    await write(t, 'dataset', clean, 'upstreamLineage', upstreams(raw, ghost));
    await write(t, 'dataset', mart, 'upstreamLineage', upstreams(clean, raw));
    await write(t, 'dataset', gone, 'upstreamLineage', upstreams(raw));
    await write(t, 'dataset', gone, 'status', { removed: true });
    await write(t, 'dataJob', job, 'dataJobInputOutput', { inputDatasets: [mart], outputDatasets: [exported] });
    await write(t, 'dataset', raw, 'ownership', { owners: [{ owner: JDOE, type: 'DATAOWNER' }], lastModified: { time: 0, actor: JDOE } });
    await write(t, 'dataset', raw, 'globalTags', { tags: [{ tag: PII }] });
    await write(t, 'tag', PII, 'tagProperties', { name: 'PII' });
  });
  after(() => t.app.close());

  it('answers the lineage counts the UI asks (count 0): stored neighbours one hop away, soft-deleted and ghosts left out', async () => {
    const counts = async (urn: string) => {
      const { dataset } = await run(COUNTS, { urn });
      return [dataset.upstream.total, dataset.downstream.total];
    };
    assert.deepEqual((await run(COUNTS, { urn: clean })).dataset.upstream, { start: 0, count: 0, total: 1, filtered: 0, relationships: [] });
    assert.deepEqual(await counts(raw), [0, 2]);
    assert.deepEqual(await counts(clean), [1, 1]);
    assert.deepEqual(await counts(mart), [2, 1]);
    assert.deepEqual(await counts(exported), [1, 0]);
  });

  it('lineage lists the neighbours by URN, each with its relationship, degree 1 and its path; pages by start and count', async () => {
    assert.deepEqual(await lineage(mart, { direction: 'UPSTREAM' }), {
      start: 0,
      count: 2,
      total: 2,
      filtered: 0,
      relationships: [clean, raw].map((urn) => ({
        type: 'DownstreamOf',
        degree: 1,
        entity: { urn, type: 'DATASET' },
        createdOn: null,
        createdActor: null,
        updatedOn: null,
        updatedActor: null,
        isManual: false,
        paths: [{ path: [{ urn: mart }, { urn }] }],
      })),
    });
    const second = await lineage(mart, { direction: 'UPSTREAM', start: 1, count: 5 });
    assert.deepEqual([second.start, second.count, second.total, urnsOf(second)], [1, 1, 2, [raw]]);
    const past = await lineage(mart, { direction: 'UPSTREAM', start: 9 });
    assert.deepEqual([past.count, past.total, urnsOf(past)], [0, 2, []]);
  });

  it('follows every lineage relationship, both ways: a job Consumes its input and Produces its output', async () => {
    const types = (page: { relationships: Array<{ type: string; entity: { urn: string; type: string } }> }) => page.relationships.map((r) => `${r.type} ${r.entity.type} ${r.entity.urn}`);
    assert.deepEqual(types(await lineage(mart, { direction: 'DOWNSTREAM' })), [`Consumes DATA_JOB ${job}`]);
    assert.deepEqual(types(await lineage(job, { direction: 'UPSTREAM' })), [`Consumes DATASET ${mart}`]);
    assert.deepEqual(types(await lineage(job, { direction: 'DOWNSTREAM' })), [`Produces DATASET ${exported}`]);
    assert.deepEqual(types(await lineage(exported, { direction: 'UPSTREAM' })), [`Produces DATA_JOB ${job}`]);
  });

  it('includeGhostEntities keeps neighbours named by edges but never stored, and soft-deleted ones; separateSiblings changes nothing', async () => {
    assert.deepEqual(urnsOf(await lineage(clean, { direction: 'UPSTREAM', includeGhostEntities: true })), [ghost, raw]);
    assert.deepEqual(urnsOf(await lineage(raw, { direction: 'DOWNSTREAM', includeGhostEntities: true })), [clean, gone, mart]);
    assert.deepEqual(urnsOf(await lineage(raw, { direction: 'DOWNSTREAM' })), [clean, mart]);
    assert.deepEqual(urnsOf(await lineage(clean, { direction: 'UPSTREAM', includeGhostEntities: false, separateSiblings: true })), [raw]);
    assert.deepEqual(urnsOf(await lineage(clean, { direction: 'UPSTREAM', separateSiblings: false })), [raw]);
  });

  it('every entity type has both fields: a tag\'s lineage is empty, its relationships name what it tags', async () => {
    assert.deepEqual(await lineage(PII, { direction: 'DOWNSTREAM' }), { start: 0, count: 0, total: 0, filtered: 0, relationships: [] });
    const { tag } = await run(`query q($urn: String!) { tag(urn: $urn) { relationships(input: {types: ["TaggedWith"], direction: INCOMING}) { total relationships { type direction entity { urn } } } } }`, { urn: PII });
    assert.deepEqual(tag.relationships, { total: 1, relationships: [{ type: 'TaggedWith', direction: 'INCOMING', entity: { urn: raw } }] });
  });

  it('relationships: the types asked, one direction, by relationship then URN, paged; soft-deleted ends only when asked', async () => {
    assert.deepEqual(await related(raw, { types: ['DownstreamOf'], direction: 'INCOMING' }), {
      start: 0,
      count: 2,
      total: 2,
      relationships: [clean, mart].map((urn) => ({ type: 'DownstreamOf', direction: 'INCOMING', entity: { urn, type: 'DATASET' } })),
    });
    assert.deepEqual(urnsOf(await related(raw, { types: ['DownstreamOf'], direction: 'INCOMING', includeSoftDelete: true })), [clean, gone, mart]);
    const page = await related(raw, { types: ['DownstreamOf'], direction: 'INCOMING', start: 1, count: 1 });
    assert.deepEqual([page.start, page.count, page.total, urnsOf(page)], [1, 1, 2, [mart]]);
    const out = await related(raw, { types: ['OwnedBy', 'TaggedWith', 'DownstreamOf'], direction: 'OUTGOING' });
    assert.deepEqual(out.relationships, [
      { type: 'OwnedBy', direction: 'OUTGOING', entity: { urn: JDOE, type: 'CORP_USER' } },
      { type: 'TaggedWith', direction: 'OUTGOING', entity: { urn: PII, type: 'TAG' } },
    ]);
    assert.deepEqual(await related(mart, { types: ['DownstreamOf'], direction: 'OUTGOING', count: 0 }), { start: 0, count: 0, total: 2, relationships: [] });
    assert.deepEqual((await related(raw, { types: ['Nothing'], direction: 'INCOMING' })).total, 0);
  });

  it('reads a page\'s lineage counts and relationships in one batch per question, whatever the number of entities, reading no aspect', async () => {
    const store = t.services.store;
    const adjacent = store.adjacentEdges.bind(store);
    let statements = 0;
    store.adjacentEdges = (filter) => {
      statements++;
      return adjacent(filter);
    };
    try {
      const query = `query page($urns: [String!]!) { entities(urns: $urns) { urn ... on EntityWithRelationships {
        upstream: lineage(input: {direction: UPSTREAM, start: 0, count: 0}) { total }
        downstream: lineage(input: {direction: DOWNSTREAM, start: 0, count: 0}) { total }
        owners: relationships(input: {types: ["OwnedBy"], direction: OUTGOING, count: 0}) { total }
      } } }`;
      const { result, reads } = await latestReads(t, () => run(query, { urns: [raw, clean, mart, exported, job] }));
      assert.deepEqual(
        result.entities.map((e: any) => [e.urn, e.upstream.total, e.downstream.total, e.owners.total]),
        [
          [raw, 0, 2, 1],
          [clean, 1, 1, 0],
          [mart, 2, 1, 0],
          [exported, 1, 0, 0],
          [job, 1, 1, 0],
        ],
      );
      // Lineage: out and in, each way; relationships: one.
      assert.equal(statements, 5);
      // The entities' fetch, and the keys of the neighbours (ghosts are left out), once each way.
      assert.equal(reads.length, 3);
      assert.deepEqual(reads.slice(1).map((aspects) => aspects?.every((a) => a.endsWith('Key'))), [true, true]);
    } finally {
      store.adjacentEdges = adjacent;
    }
  });

  it('pages by 100 when no count is asked, as DataHub does', async () => {
    const wide = datasetUrn('el.wide');
    const many = Array.from({ length: 101 }, (_, i) => `urn:li:corpuser:u${String(i).padStart(3, '0')}`);
    await write(t, 'dataset', wide, 'ownership', { owners: many.map((owner) => ({ owner, type: 'DATAOWNER' })), lastModified: { time: 0, actor: JDOE } });
    await write(t, 'dataset', wide, 'upstreamLineage', upstreams(...many.map((_, i) => datasetUrn(`el.up${String(i).padStart(3, '0')}`))));
    const owners = await related(wide, { types: ['OwnedBy'], direction: 'OUTGOING' });
    assert.deepEqual([owners.start, owners.count, owners.total, owners.relationships.at(-1).entity.urn], [0, 100, 101, many[99]]);
    const up = await lineage(wide, { direction: 'UPSTREAM', includeGhostEntities: true });
    assert.deepEqual([up.start, up.count, up.total, up.relationships.at(-1).entity.urn], [0, 100, 101, datasetUrn('el.up099')]);
  });

  it('refuses a time range, a negative start or count, no relationship types or a name that is none, as BAD_REQUEST', async () => {
    const refused = async (query: string, variables: Record<string, unknown>, message: string) => {
      const { body } = await graphql(t, query, variables);
      // The field refused answers null; the entity is still answered.
      const field = query === LINEAGE ? 'lineage' : 'relationships';
      assert.deepEqual(body.data, { entity: field === 'lineage' ? { urn: raw, lineage: null } : { relationships: null } }, message);
      assert.deepEqual(body.errors.map((e: any) => [e.message, e.path, e.extensions]), [[message, ['entity', field], { code: 400, type: 'BAD_REQUEST' }]]);
    };
    await refused(LINEAGE, { urn: raw, input: { direction: 'UPSTREAM', startTimeMillis: 1 } }, "startTimeMillis: lineage is not filtered by time (urnbase's edges carry no time range); leave it out");
    await refused(LINEAGE, { urn: raw, input: { direction: 'UPSTREAM', endTimeMillis: 1 } }, "endTimeMillis: lineage is not filtered by time (urnbase's edges carry no time range); leave it out");
    await refused(LINEAGE, { urn: raw, input: { direction: 'UPSTREAM', count: -1 } }, 'count must be at least 0, got -1');
    await refused(LINEAGE, { urn: raw, input: { direction: 'UPSTREAM', start: -2 } }, 'start must be at least 0, got -2');
    await refused(RELATIONSHIPS, { urn: raw, input: { types: [], direction: 'INCOMING' } }, 'types must name at least one relationship type (DownstreamOf, OwnedBy, …)');
    await refused(RELATIONSHIPS, { urn: raw, input: { types: ['Owned By'], direction: 'INCOMING' } }, 'Invalid relationship type "Owned By": a name such as DownstreamOf');
    const { body } = await graphql(t, RELATIONSHIPS, { urn: raw, input: { types: ['OwnedBy'], direction: 'UPSTREAM' } });
    assert.equal(body.errors[0].extensions.code, 400);
    assert.match(body.errors[0].message, /Value "UPSTREAM" does not exist in "RelationshipDirection" enum/);
  });
});
