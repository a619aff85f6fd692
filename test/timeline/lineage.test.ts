import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upstreamLineageDiffer } from '../../src/timeline/differs/lineage.js';

const ds = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)';
const raw = 'urn:li:dataset:(urn:li:dataPlatform:s3,raw_orders,PROD)';
const staging = 'urn:li:dataset:(urn:li:dataPlatform:hive,staging_orders,PROD)';
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;
const stamp = { time: 0, actor: 'urn:li:corpuser:unknown' };
// Values in the shape of DataHub's UpstreamLineage aspect.
const upstream = (dataset: string, type = 'TRANSFORMED') => ({ auditStamp: stamp, dataset, type });
const columns = (upstreams: string[], downstreams: string[]) => ({ upstreamType: 'FIELD_SET', upstreams, downstreamType: 'FIELD', downstreams, confidenceScore: 1.0 });
const events = (previous: unknown, current: unknown) => upstreamLineageDiffer.events(previous, current, 'LINEAGE', ds);

describe('upstreamLineage changes (LINEAGE)', () => {
  it('adds each upstream dataset of a first value, MINOR, naming it and its lineage type', () => {
    assert.deepEqual(events(undefined, { upstreams: [upstream(staging), upstream(raw, 'COPY')] }), [
      {
        entityUrn: ds, category: 'LINEAGE', operation: 'ADD', modifier: staging,
        parameters: { upstreamUrn: staging, lineageType: 'TRANSFORMED' }, semVerChange: 'MINOR',
        description: `'${staging}' was added as an upstream of '${ds}'.`,
      },
      {
        entityUrn: ds, category: 'LINEAGE', operation: 'ADD', modifier: raw,
        parameters: { upstreamUrn: raw, lineageType: 'COPY' }, semVerChange: 'MINOR',
        description: `'${raw}' was added as an upstream of '${ds}'.`,
      },
    ]);
  });

  it('removes an upstream dataset MINOR, and a changed lineage type is a MODIFY, PATCH', () => {
    const list = events({ upstreams: [upstream(raw), upstream(staging)] }, { upstreams: [upstream(staging, 'VIEW')] });
    // In URN order: hive's before s3's.
    assert.deepEqual(list.map((e) => [e.operation, e.semVerChange, e.modifier, e.parameters]), [
      ['MODIFY', 'PATCH', staging, { upstreamUrn: staging, lineageType: 'VIEW', previousLineageType: 'TRANSFORMED' }],
      ['REMOVE', 'MINOR', raw, { upstreamUrn: raw, lineageType: 'TRANSFORMED' }],
    ]);
    assert.equal(list[0].description, `The lineage from '${staging}' to '${ds}' changed from TRANSFORMED to VIEW.`);
  });

  it('reports column-level edges added and removed, MINOR, modifier the downstream field', () => {
    const before = { upstreams: [upstream(raw)], fineGrainedLineages: [columns([field(raw, 'id')], [field(ds, 'order_id')])] };
    const after = { upstreams: [upstream(raw)], fineGrainedLineages: [columns([field(raw, 'id'), field(raw, 'ref')], [field(ds, 'order_id')])] };
    assert.deepEqual(events(before, after), [
      {
        entityUrn: ds, category: 'LINEAGE', operation: 'ADD', modifier: field(ds, 'order_id'),
        parameters: { downstreamUrn: field(ds, 'order_id'), upstreamUrn: field(raw, 'ref') }, semVerChange: 'MINOR',
        description: `The column lineage from '${field(raw, 'ref')}' to '${field(ds, 'order_id')}' was added.`,
      },
    ]);
    assert.deepEqual(events(after, { upstreams: [upstream(raw)] }).map((e) => [e.operation, e.parameters]), [
      ['REMOVE', { downstreamUrn: field(ds, 'order_id'), upstreamUrn: field(raw, 'id') }],
      ['REMOVE', { downstreamUrn: field(ds, 'order_id'), upstreamUrn: field(raw, 'ref') }],
    ]);
  });

  it('finds no change when only audit stamps or properties changed', () => {
    assert.deepEqual(events({ upstreams: [upstream(raw)] }, { upstreams: [{ ...upstream(raw), auditStamp: { time: 5, actor: 'urn:li:corpuser:x' }, properties: { a: 'b' } }] }), []);
  });
});
