import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { defineProperty, definition, postDefinition, postValues, setStatus } from '../structured/fixtures.js';
import {
  chartInfo,
  datasetAspects,
  datasetUrn,
  enc,
  globalTags,
  list,
  listUrns,
  ownership,
  patch,
  remove,
  scroll,
  schemaMetadata,
  search,
  sorted,
  tag,
  user,
  V2,
  write,
  writeBatch,
  writeDatasets,
} from './fixtures.js';

/**
 * The index follows every write: what an update, a JSON PATCH or a delete takes away is no longer
 * found, what it adds is found at once, and a rejected write changes nothing. Each test uses words,
 * tags and names of its own, so the tests share one catalog without seeing each other's entities.
 */

describe('search: the index stays consistent with the aspects', () => {
  let t: TestApp;
  before(async () => (t = await testApp()));
  after(() => t.app.close());

  /** The facet counts of one field over all datasets. */
  const facet = async (field: string, query = '*') => {
    const res = await scroll(t, { entities: ['dataset'], facets: [field] }, { query });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.facets[0].aggregations;
  };

  describe('updates', () => {
    it('finds the new tag and no longer the old one after globalTags is replaced', async () => {
      const urn = datasetUrn('upd.tags');
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('updold')]));
      assert.deepEqual(await search(t, 'tags:updold'), [urn]);
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('updnew')]));
      assert.deepEqual(await search(t, 'tags:updold'), []);
      assert.deepEqual(await search(t, 'updold'), []);
      assert.deepEqual(await search(t, 'tags:updnew'), [urn]);
      assert.deepEqual(await search(t, 'updnew'), [urn]);
      const counts = await facet('tags');
      assert.equal(counts[tag('updold')], undefined);
      assert.equal(counts[tag('updnew')], 1);
    });

    it('finds the new name and no longer the old one; sorts by the new name', async () => {
      const urn = datasetUrn('upd.name');
      const other = datasetUrn('upd.name.other');
      await write(t, 'dataset', urn, 'datasetProperties', { name: 'aardvark renamed', description: 'renamedthing' });
      await write(t, 'dataset', other, 'datasetProperties', { name: 'middle', description: 'renamedthing' });
      assert.deepEqual(await listUrns(t, 'dataset', { query: 'description:renamedthing', sortCriteria: 'name' }), [urn, other]);
      await write(t, 'dataset', urn, 'datasetProperties', { name: 'zebu renamed', description: 'renamedthing' });
      assert.deepEqual(await search(t, 'aardvark'), []);
      assert.deepEqual(await search(t, 'name:"aardvark renamed"'), []);
      assert.deepEqual(await search(t, 'name:"zebu renamed"'), [urn]);
      assert.deepEqual(await search(t, 'zebu'), [urn]);
      assert.deepEqual(await listUrns(t, 'dataset', { query: 'description:renamedthing', sortCriteria: 'name' }), [other, urn]);
    });

    it('replaces the values of a structured property on a full write', async () => {
      const prop = await defineProperty(t, 'upd.days', { valueType: 'urn:li:dataType:datahub.number' });
      const urn = datasetUrn('upd.days');
      assert.equal((await postValues(t, urn, [{ propertyUrn: prop, values: [{ double: 30 }] }])).status, 200);
      assert.deepEqual(await search(t, 'structuredProperties.upd.days:30'), [urn]);
      assert.equal((await postValues(t, urn, [{ propertyUrn: prop, values: [{ double: 60 }] }])).status, 200);
      assert.deepEqual(await search(t, 'structuredProperties.upd.days:30'), []);
      assert.deepEqual(await search(t, 'structuredProperties.upd.days:<50'), []);
      assert.deepEqual(await search(t, 'structuredProperties.upd.days:>50'), [urn]);
    });

    it('finds new field paths and no longer old ones after schemaMetadata changes', async () => {
      const urn = datasetUrn('upd.schema');
      await write(t, 'dataset', urn, 'schemaMetadata', schemaMetadata(['oldcolumn', 'keptcolumn']));
      assert.deepEqual(await search(t, 'fieldPaths:oldcolumn'), [urn]);
      await write(t, 'dataset', urn, 'schemaMetadata', schemaMetadata(['keptcolumn', 'newcolumn']));
      assert.deepEqual(await search(t, 'fieldPaths:oldcolumn'), []);
      assert.deepEqual(await search(t, 'oldcolumn'), []);
      assert.deepEqual(await search(t, 'fieldPaths:newcolumn'), [urn]);
      assert.deepEqual(await search(t, 'fieldPaths:keptcolumn'), [urn]);
    });

    it('keeps the values of a soft-deleted property through a full replace: found again after restore', async () => {
      const hidden = await defineProperty(t, 'upd.hidden');
      const shown = await defineProperty(t, 'upd.shown');
      const urn = datasetUrn('upd.hidden');
      assert.equal((await postValues(t, urn, [{ propertyUrn: hidden, values: [{ string: 'survives' }] }])).status, 200);
      assert.equal((await setStatus(t, hidden, true)).status, 200);
      // A client that read the (filtered) aspect writes it back with another property.
      assert.equal((await postValues(t, urn, [{ propertyUrn: shown, values: [{ string: 'visible' }] }])).status, 200);
      assert.equal((await setStatus(t, hidden, false)).status, 200);
      assert.deepEqual(await search(t, 'structuredProperties.upd.hidden:survives'), [urn]);
      assert.deepEqual(await search(t, 'structuredProperties.upd.shown:visible'), [urn]);
    });

    it('keeps what other aspects feed when one of them changes', async () => {
      const urn = datasetUrn('upd.other');
      await writeDatasets(t, [[urn, { name: 'keepname', description: 'keepdescription', tags: [tag('keeptag')], owners: [user('keepowner')] }]]);
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('keeptag2')]));
      await write(t, 'dataset', urn, 'editableDatasetProperties', { description: 'editedwords' });
      assert.deepEqual(await search(t, 'name:keepname'), [urn]);
      assert.deepEqual(await search(t, 'keepdescription editedwords'), [urn]);
      assert.deepEqual(await search(t, 'owners:keepowner'), [urn]);
      assert.deepEqual(await search(t, 'tags:keeptag2'), [urn]);
      assert.deepEqual(await search(t, 'tags:keeptag'), []);
    });
  });

  describe('JSON PATCH', () => {
    const keys = { tags: ['tag'] };

    it('finds a tag added by PATCH', async () => {
      const urn = datasetUrn('patch.add');
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('patchkept')]));
      await patch(t, 'dataset', urn, 'globalTags', [{ op: 'add', path: `/tags/${tag('patchadded')}`, value: { tag: tag('patchadded') } }], keys);
      assert.deepEqual(await search(t, 'tags:patchadded'), [urn]);
      assert.deepEqual(await search(t, 'tags:patchkept AND tags:patchadded'), [urn]);
    });

    it('no longer finds a tag removed by PATCH', async () => {
      const urn = datasetUrn('patch.remove');
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('patchgone'), tag('patchstays')]));
      await patch(t, 'dataset', urn, 'globalTags', [{ op: 'remove', path: `/tags/${tag('patchgone')}` }], keys);
      assert.deepEqual(await search(t, 'tags:patchgone'), []);
      assert.deepEqual(await search(t, 'patchgone'), []);
      assert.deepEqual(await search(t, 'tags:patchstays'), [urn]);
    });

    it('follows a PATCH of a text field', async () => {
      const urn = datasetUrn('patch.text');
      await write(t, 'dataset', urn, 'datasetProperties', { name: 'patcholdname', description: 'unchanged words' });
      await patch(t, 'dataset', urn, 'datasetProperties', [{ op: 'replace', path: '/name', value: 'patchnewname' }]);
      assert.deepEqual(await search(t, 'name:patcholdname'), []);
      assert.deepEqual(await search(t, 'name:patchnewname'), [urn]);
      await patch(t, 'dataset', urn, 'datasetProperties', [{ op: 'remove', path: '/description' }]);
      assert.deepEqual(await search(t, 'name:patchnewname AND _exists_:description'), []);
    });

    it('finds a structured-property value added by PATCH, and not once it is removed by PATCH', async () => {
      const prop = await defineProperty(t, 'patch.level');
      const other = await defineProperty(t, 'patch.other');
      const urn = datasetUrn('patch.props');
      assert.equal((await postValues(t, urn, [{ propertyUrn: other, values: [{ string: 'stays' }] }])).status, 200);
      const keys = { properties: ['propertyUrn'] };
      await patch(t, 'dataset', urn, 'structuredProperties', [{ op: 'add', path: `/properties/${prop}`, value: { propertyUrn: prop, values: [{ string: 'secret' }] } }], keys);
      assert.deepEqual(await search(t, 'structuredProperties.patch.level:secret'), [urn]);
      assert.deepEqual(await facet('structuredProperties.patch.level'), { secret: 1 });
      await patch(t, 'dataset', urn, 'structuredProperties', [{ op: 'remove', path: `/properties/${prop}` }], keys);
      assert.deepEqual(await search(t, 'structuredProperties.patch.level:secret'), []);
      assert.deepEqual(await search(t, '_exists_:structuredProperties.patch.level'), []);
      assert.deepEqual(await facet('structuredProperties.patch.level'), {});
      assert.deepEqual(await search(t, 'structuredProperties.patch.other:stays'), [urn]);
    });

    it('follows a PATCH replacing a number value', async () => {
      const prop = await defineProperty(t, 'patch.days', { valueType: 'urn:li:dataType:datahub.number' });
      const urn = datasetUrn('patch.days');
      const keys = { properties: ['propertyUrn'] };
      await patch(t, 'dataset', urn, 'structuredProperties', [{ op: 'add', path: `/properties/${prop}`, value: { propertyUrn: prop, values: [{ double: 7 }] } }], keys);
      await patch(t, 'dataset', urn, 'structuredProperties', [{ op: 'add', path: `/properties/${prop}`, value: { propertyUrn: prop, values: [{ double: 700 }] } }], keys);
      assert.deepEqual(await search(t, 'structuredProperties.patch.days:<100'), []);
      assert.deepEqual(await search(t, 'structuredProperties.patch.days:700'), [urn]);
    });
  });

  describe('deletes', () => {
    it('no longer finds what a deleted aspect fed', async () => {
      const urn = datasetUrn('del.aspect');
      await writeDatasets(t, [[urn, { name: 'delaspect', tags: [tag('delgone')], owners: [user('delowner')] }]]);
      await remove(t, 'dataset', urn, 'globalTags');
      assert.deepEqual(await search(t, 'tags:delgone'), []);
      assert.deepEqual(await search(t, 'delgone'), []);
      assert.deepEqual(await search(t, 'name:delaspect AND _exists_:tags'), []);
      assert.deepEqual(await search(t, 'name:delaspect AND NOT _exists_:tags'), [urn]);
      assert.equal((await facet('tags'))[tag('delgone')], undefined);
      assert.deepEqual(await search(t, 'owners:delowner'), [urn]);
    });

    it('deleting the editable description keeps the other one', async () => {
      const urn = datasetUrn('del.editable');
      await writeDatasets(t, [[urn, { description: 'originalwords', editableDescription: 'editablewords' }]]);
      assert.deepEqual(await search(t, 'description:editablewords'), [urn]);
      await remove(t, 'dataset', urn, 'editableDatasetProperties');
      assert.deepEqual(await search(t, 'editablewords'), []);
      assert.deepEqual(await search(t, 'description:originalwords AND _exists_:description'), [urn]);
      await remove(t, 'dataset', urn, 'datasetProperties');
      assert.deepEqual(await search(t, 'originalwords'), []);
      assert.deepEqual(await search(t, `urn:"${urn}" AND _exists_:description`), []);
      assert.deepEqual(await search(t, `urn:"${urn}"`), [urn]);
    });

    it('finds nothing of a deleted entity, by any field or free word', async () => {
      const prop = await defineProperty(t, 'del.level');
      const days = await defineProperty(t, 'del.days', { valueType: 'urn:li:dataType:datahub.number' });
      const when = await defineProperty(t, 'del.when', { valueType: 'urn:li:dataType:datahub.date' });
      const urn = datasetUrn('del.whole.ledger', 'snowflake');
      const keep = datasetUrn('del.whole.keep', 'snowflake');
      const spec = {
        name: 'wholename',
        qualifiedName: 'db.wholeqn',
        description: 'wholedescription',
        editableDescription: 'wholeedited',
        tags: [tag('wholetag')],
        owners: [user('wholeowner')],
        terms: ['urn:li:glossaryTerm:WholeTerm'],
        domains: ['urn:li:domain:wholedomain'],
        subtypes: ['Wholesubtype'],
        fieldPaths: ['wholefield'],
        properties: [
          { propertyUrn: prop, values: [{ string: 'wholevalue' }] },
          { propertyUrn: days, values: [{ double: 12 }] },
          { propertyUrn: when, values: [{ string: '2024-02-29' }] },
        ],
      };
      await writeDatasets(t, [[urn, spec], [keep, { name: 'keepwhole', tags: [tag('wholetag')] }]]);
      const queries = [
        'name:wholename',
        'qualifiedName:db.wholeqn',
        'description:wholedescription',
        'description:wholeedited',
        'tags:wholetag',
        'owners:wholeowner',
        'glossaryTerms:WholeTerm',
        'domains:wholedomain',
        'subtypes:Wholesubtype',
        'fieldPaths:wholefield',
        'structuredProperties.del.level:wholevalue',
        'structuredProperties.del.days:12',
        'structuredProperties.del.days:>0',
        'structuredProperties.del.when:2024-02-29',
        'structuredProperties.del.when:>2024-01-01',
        'wholename',
        'wholeedited',
        'ledger',
        `urn:"${urn}"`,
        'platform:snowflake',
      ];
      for (const query of queries) assert.ok((await search(t, query)).includes(urn), `before the delete: ${query}`);

      await remove(t, 'dataset', urn);
      assert.equal((await t.call({ method: 'HEAD', url: `${V2}/dataset/${enc(urn)}` })).status, 404);
      for (const query of queries) {
        assert.deepEqual((await search(t, query)).filter((u) => u === urn), [], `after the delete: ${query}`);
        assert.deepEqual((await search(t, query, { includeSoftDelete: true })).filter((u) => u === urn), [], `after the delete, includeSoftDelete: ${query}`);
      }
      assert.deepEqual(await search(t, 'tags:wholetag'), [keep]);
      assert.deepEqual(await search(t, 'platform:snowflake AND whole'), [keep]);
      assert.equal((await facet('tags'))[tag('wholetag')], 1);
      assert.deepEqual(await facet('structuredProperties.del.level'), {});
      assert.deepEqual(await facet('structuredProperties.del.days'), {});
      assert.deepEqual(await facet('structuredProperties.del.when'), {});
      assert.equal((await listUrns(t, 'dataset', { query: '*' })).includes(urn), false);
    });

    it('finds only the new values of an entity deleted and written again', async () => {
      const urn = datasetUrn('del.recreated');
      await writeDatasets(t, [[urn, { name: 'firstlife', tags: [tag('firsttag')] }]]);
      await remove(t, 'dataset', urn);
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('secondtag')]));
      assert.deepEqual(await search(t, 'firstlife'), []);
      assert.deepEqual(await search(t, 'tags:firsttag'), []);
      assert.deepEqual(await search(t, 'tags:secondtag'), [urn]);
      assert.deepEqual(await search(t, `urn:"${urn}" AND _exists_:name`), []);
    });

    it('counts a deleted entity out of totals', async () => {
      const urns = [datasetUrn('del.count.a'), datasetUrn('del.count.b'), datasetUrn('del.count.c')];
      await writeDatasets(t, urns.map((u) => [u, { tags: [tag('delcount')] }]));
      const before = await list(t, 'dataset', { query: 'tags:delcount' });
      assert.equal(before.body.totalCount, 3);
      await remove(t, 'dataset', urns[1]);
      const res = await list(t, 'dataset', { query: 'tags:delcount' });
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), [urns[0], urns[2]]);
      assert.equal(res.body.totalCount, 2);
    });
  });

  describe('hard delete of a structured property', () => {
    /** Defines a property, gives two datasets values, soft deletes it, hard deletes it. */
    async function hardDeleted(qualifiedName: string, valueType: string, values: [unknown, unknown]): Promise<{ urn: string; datasets: string[] }> {
      const urn = await defineProperty(t, qualifiedName, { valueType: `urn:li:dataType:datahub.${valueType}` });
      const keep = await defineProperty(t, `${qualifiedName}.keep`);
      const datasets = [datasetUrn(`${qualifiedName}.a`), datasetUrn(`${qualifiedName}.b`)];
      for (const [i, d] of datasets.entries()) {
        const res = await postValues(t, d, [
          { propertyUrn: urn, values: [values[i]] },
          { propertyUrn: keep, values: [{ string: 'kept' }] },
        ]);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      assert.equal((await setStatus(t, urn, true)).status, 200);
      const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(urn)}` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { urn, datasets };
    }

    /** Defines the property again under the same qualified name and type. */
    async function recreate(qualifiedName: string, valueType: string): Promise<void> {
      const res = await postDefinition(t, qualifiedName, definition(qualifiedName, { valueType: `urn:li:dataType:datahub.${valueType}` }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }

    it('removes string values from every entity: the re-created property finds none of them', async () => {
      const { datasets } = await hardDeleted('hard.str', 'string', [{ string: 'oldvalue' }, { string: 'other' }]);
      await recreate('hard.str', 'string');
      assert.deepEqual(await search(t, 'structuredProperties.hard.str:oldvalue'), []);
      assert.deepEqual(await search(t, 'structuredProperties.hard.str:old*'), []);
      assert.deepEqual(await search(t, '_exists_:structuredProperties.hard.str'), []);
      assert.deepEqual(await facet('structuredProperties.hard.str'), {});
      assert.deepEqual(await search(t, 'structuredProperties.hard.str.keep:kept'), sorted(datasets));
    });

    it('removes number values from every entity', async () => {
      const { datasets } = await hardDeleted('hard.num', 'number', [{ double: 42 }, { double: 7 }]);
      await recreate('hard.num', 'number');
      assert.deepEqual(await search(t, 'structuredProperties.hard.num:42'), []);
      assert.deepEqual(await search(t, 'structuredProperties.hard.num:>0'), []);
      assert.deepEqual(await search(t, '_exists_:structuredProperties.hard.num'), []);
      assert.deepEqual(await facet('structuredProperties.hard.num'), {});
      assert.deepEqual(await search(t, 'structuredProperties.hard.num.keep:kept'), sorted(datasets));
    });

    it('removes date values from every entity', async () => {
      const { datasets } = await hardDeleted('hard.date', 'date', [{ string: '2024-01-15' }, { string: '2023-06-30' }]);
      await recreate('hard.date', 'date');
      assert.deepEqual(await search(t, 'structuredProperties.hard.date:2024-01-15'), []);
      assert.deepEqual(await search(t, 'structuredProperties.hard.date:>2000-01-01'), []);
      assert.deepEqual(await search(t, 'structuredProperties.hard.date:<2030-01-01'), []);
      assert.deepEqual(await search(t, '_exists_:structuredProperties.hard.date'), []);
      assert.deepEqual(await facet('structuredProperties.hard.date'), {});
      assert.deepEqual(await search(t, 'structuredProperties.hard.date.keep:kept'), sorted(datasets));
    });

    it('removes values from entities of every type', async () => {
      const urn = await defineProperty(t, 'hard.types', { entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'] });
      const chart = 'urn:li:chart:(looker,hard.types)';
      assert.equal((await postValues(t, chart, [{ propertyUrn: urn, values: [{ string: 'chartvalue' }] }], 'chart')).status, 200);
      assert.equal((await postValues(t, datasetUrn('hard.types'), [{ propertyUrn: urn, values: [{ string: 'chartvalue' }] }])).status, 200);
      assert.equal((await setStatus(t, urn, true)).status, 200);
      assert.equal((await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(urn)}` })).status, 200);
      const res = await postDefinition(t, 'hard.types', definition('hard.types', { entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'] }));
      assert.equal(res.status, 200);
      const found = await scroll(t, { filter: { and: [{ criteria: [{ field: 'structuredProperties.hard.types', values: ['chartvalue'] }] }] } });
      assert.equal(found.status, 200);
      assert.deepEqual(found.body.results, []);
      assert.equal(found.body.totalCount, 0);
    });

    it('a refused hard delete (live property) leaves its values searchable', async () => {
      const urn = await defineProperty(t, 'hard.live');
      const d = datasetUrn('hard.live');
      assert.equal((await postValues(t, d, [{ propertyUrn: urn, values: [{ string: 'alive' }] }])).status, 200);
      const res = await t.call({ method: 'DELETE', url: `${V2}/structuredProperty/${enc(urn)}` });
      assert.equal(res.status, 409);
      assert.deepEqual(await search(t, 'structuredProperties.hard.live:alive'), [d]);
    });

    it('answers 400 for the property between the hard delete and its re-creation', async () => {
      await hardDeleted('hard.gap', 'string', [{ string: 'a' }, { string: 'b' }]);
      const res = await list(t, 'dataset', { query: 'structuredProperties.hard.gap:a' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'Validation Error', message: 'Invalid query at column 1: Unknown structured property structuredProperties.hard.gap' });
    });

    it('finds new values of the re-created property', async () => {
      await hardDeleted('hard.again', 'number', [{ double: 1 }, { double: 2 }]);
      await recreate('hard.again', 'number');
      const urn = datasetUrn('hard.again.new');
      assert.equal((await postValues(t, urn, [{ propertyUrn: 'urn:li:structuredProperty:hard.again', values: [{ double: 2 }] }])).status, 200);
      assert.deepEqual(await search(t, 'structuredProperties.hard.again:2'), [urn]);
      assert.deepEqual(await search(t, 'structuredProperties.hard.again:>0'), [urn]);
    });
  });

  describe('batches', () => {
    it('finds every entity of a batch POST at once', async () => {
      const urns = [datasetUrn('batch.one'), datasetUrn('batch.two'), datasetUrn('batch.three')];
      await writeDatasets(t, [
        [urns[0], { name: 'batchone', tags: [tag('batchtag')] }],
        [urns[1], { name: 'batchtwo', tags: [tag('batchtag')], owners: [user('batchowner')] }],
        [urns[2], { description: 'batchthree', owners: [user('batchowner')] }],
      ]);
      assert.deepEqual(await search(t, 'tags:batchtag'), sorted([urns[0], urns[1]]));
      assert.deepEqual(await search(t, 'owners:batchowner'), sorted([urns[1], urns[2]]));
      assert.deepEqual(await search(t, 'batchtwo'), [urns[1]]);
      assert.deepEqual(await search(t, 'description:batchthree'), [urns[2]]);
    });

    it('a batch rejected with 400 leaves the index unchanged', async () => {
      const existing = datasetUrn('batch.existing');
      await writeDatasets(t, [[existing, { name: 'rejectbefore', tags: [tag('rejectold')] }]]);
      const queries = ['tags:rejectold', 'tags:rejectnew', 'rejectbefore', 'rejectafter', 'rejectfresh', 'tags:rejectfresh'];
      const before = await Promise.all(queries.map((q) => search(t, q)));
      const res = await t.call({
        method: 'POST',
        url: `${V2}/dataset`,
        payload: [
          { urn: existing, aspects: { globalTags: { value: globalTags([tag('rejectnew')]) }, datasetProperties: { value: { name: 'rejectafter' } } } },
          { urn: datasetUrn('batch.fresh'), aspects: { datasetProperties: { value: { name: 'rejectfresh' } }, globalTags: { value: globalTags([tag('rejectfresh')]) } } },
          { urn: datasetUrn('batch.invalid'), aspects: { status: { value: { removed: 'yes' } } } },
        ],
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      const after = await Promise.all(queries.map((q) => search(t, q)));
      assert.deepEqual(after, before);
      assert.deepEqual(before, [[existing], [], [existing], [], [], []]);
    });

    it('a batch rejected by a structured-property rule leaves the index unchanged', async () => {
      const prop = await defineProperty(t, 'batch.days', { valueType: 'urn:li:dataType:datahub.number' });
      const urn = datasetUrn('batch.rule');
      const res = await t.call({
        method: 'POST',
        url: `${V2}/dataset`,
        payload: [
          { urn, aspects: { datasetProperties: { value: { name: 'rulebatch' } }, structuredProperties: { value: { properties: [{ propertyUrn: prop, values: [{ double: 5 }] }] } } } },
          { urn: datasetUrn('batch.rule2'), aspects: { structuredProperties: { value: { properties: [{ propertyUrn: prop, values: [{ string: 'five' }] }] } } } },
        ],
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(await search(t, 'rulebatch'), []);
      assert.deepEqual(await search(t, 'structuredProperties.batch.days:5'), []);
      assert.deepEqual(await search(t, '_exists_:structuredProperties.batch.days'), []);
    });

    it('a single write rejected with 400 leaves the index unchanged', async () => {
      const urn = datasetUrn('single.rejected');
      await write(t, 'dataset', urn, 'globalTags', globalTags([tag('singleold')]));
      const res = await t.call({ method: 'POST', url: `${V2}/dataset/${enc(urn)}/globalTags`, payload: { tags: [{ tag: 'singlenew' }] } });
      assert.equal(res.status, 400);
      assert.deepEqual(await search(t, 'tags:singleold'), [urn]);
      assert.deepEqual(await search(t, 'singlenew'), []);
    });
  });

  describe('what feeds the index', () => {
    it("a chart's chartInfo.title is its name, its description is its description", async () => {
      const chart = 'urn:li:chart:(looker,feed.chart)';
      await write(t, 'chart', chart, 'chartInfo', chartInfo('Quarterly Revenue', 'bars of money'));
      assert.deepEqual(await search(t, 'name:revenue', {}, 'chart'), [chart]);
      assert.deepEqual(await search(t, 'name:"quarterly revenue"', {}, 'chart'), [chart]);
      assert.deepEqual(await search(t, 'description:money', {}, 'chart'), [chart]);
      assert.deepEqual(await search(t, 'quarterly', {}, 'chart'), [chart]);
      assert.deepEqual(await search(t, 'quarterly'), []);
      await write(t, 'chart', chart, 'editableChartProperties', { description: 'edited chart words' });
      assert.deepEqual(await search(t, 'description:edited', {}, 'chart'), [chart]);
    });

    it("a glossary term's glossaryTermInfo.name is its name and its definition its description", async () => {
      const term = 'urn:li:glossaryTerm:feed.term';
      await write(t, 'glossaryTerm', term, 'glossaryTermInfo', { name: 'Personal Data', definition: 'identifies a person', termSource: 'INTERNAL' });
      assert.deepEqual(await search(t, 'name:"personal data"', {}, 'glossaryTerm'), [term]);
      assert.deepEqual(await search(t, 'description:identifies', {}, 'glossaryTerm'), [term]);
      assert.deepEqual(await listUrns(t, 'glossaryTerm', { query: 'personal' }), [term]);
    });

    it("other types' names: tagProperties.name, corpUserInfo.displayName, dashboardInfo.title", async () => {
      await write(t, 'tag', 'urn:li:tag:feed.tag', 'tagProperties', { name: 'Feedtagname', description: 'tag words' });
      await write(t, 'corpuser', 'urn:li:corpuser:feed.user', 'corpUserInfo', { active: true, displayName: 'Feedy McUser' });
      await write(t, 'dashboard', 'urn:li:dashboard:(looker,feed.dash)', 'dashboardInfo', {
        title: 'Feed Dashboard',
        description: '',
        lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
      });
      assert.deepEqual(await search(t, 'name:feedtagname', {}, 'tag'), ['urn:li:tag:feed.tag']);
      assert.deepEqual(await search(t, 'name:mcuser', {}, 'corpuser'), ['urn:li:corpuser:feed.user']);
      assert.deepEqual(await search(t, 'name:"feed dashboard"', {}, 'dashboard'), ['urn:li:dashboard:(looker,feed.dash)']);
      const res = await scroll(t, { entities: ['tag', 'corpuser', 'dashboard'] }, { query: 'feed*', sort: 'urn' });
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), ['urn:li:corpuser:feed.user', 'urn:li:dashboard:(looker,feed.dash)', 'urn:li:tag:feed.tag']);
    });

    it('fieldPaths come from schemaMetadata.fields[].fieldPath', async () => {
      const urn = datasetUrn('feed.schema');
      await write(t, 'dataset', urn, 'schemaMetadata', schemaMetadata(['feedcol_one', 'nested.feedcol_two']));
      assert.deepEqual(await search(t, 'fieldPaths:feedcol_one'), [urn]);
      assert.deepEqual(await search(t, 'fieldPaths:"nested.feedcol_two"'), [urn]);
      assert.deepEqual(await search(t, 'fieldPaths:feedcol*'), [urn]);
      assert.deepEqual(await search(t, `urn:"${urn}" AND _exists_:fieldPaths`), [urn]);
    });

    it('subtypes come from subTypes.typeNames', async () => {
      const urn = datasetUrn('feed.subtypes');
      await write(t, 'dataset', urn, 'subTypes', { typeNames: ['Feed View', 'Feedmaterialized'] });
      assert.deepEqual(await search(t, 'subtypes:"Feed View"'), [urn]);
      assert.deepEqual(await search(t, 'subtypes:Feedmaterialized'), [urn]);
      assert.deepEqual(await search(t, 'feedmaterialized'), [urn]);
    });

    it('domains come from domains.domains', async () => {
      const urn = datasetUrn('feed.domains');
      await write(t, 'dataset', urn, 'domains', { domains: ['urn:li:domain:feeddomain'] });
      assert.deepEqual(await search(t, 'domains:feeddomain'), [urn]);
      assert.deepEqual(await search(t, 'domains:urn:li:domain:feeddomain'), [urn]);
    });

    it('owners come from ownership.owners[].owner, users and groups', async () => {
      const urn = datasetUrn('feed.owners');
      await write(t, 'dataset', urn, 'ownership', ownership([user('feeduser'), 'urn:li:corpGroup:feedgroup']));
      assert.deepEqual(await search(t, 'owners:feeduser'), [urn]);
      assert.deepEqual(await search(t, 'owners:feedgroup'), [urn]);
    });

    it('_exists_:description holds for a description from either aspect, and not for an empty one', async () => {
      const both = datasetUrn('feed.desc.both');
      const editable = datasetUrn('feed.desc.editable');
      const plain = datasetUrn('feed.desc.plain');
      const empty = datasetUrn('feed.desc.empty');
      const none = datasetUrn('feed.desc.none');
      await writeDatasets(t, [
        [both, { name: 'feeddesc', description: 'x words', editableDescription: 'y words' }],
        [editable, { name: 'feeddesc', editableDescription: 'y words' }],
        [plain, { name: 'feeddesc', description: 'x words' }],
        [empty, { name: 'feeddesc', description: '' }],
        [none, { name: 'feeddesc' }],
      ]);
      assert.deepEqual(await search(t, 'name:feeddesc AND _exists_:description'), sorted([both, editable, plain]));
      assert.deepEqual(await search(t, 'name:feeddesc AND NOT _exists_:description'), sorted([empty, none]));
    });

    it('a dataset is found by the words of its URN without any other aspect', async () => {
      const urn = datasetUrn('feedsales.feedorders');
      await write(t, 'dataset', urn, 'status', { removed: false });
      assert.deepEqual(await search(t, 'feedorders'), [urn]);
      assert.deepEqual(await search(t, 'feedsales'), [urn]);
      assert.deepEqual(await search(t, '"feedsales feedorders"'), [urn]);
      assert.deepEqual(await search(t, 'name:feedorders'), []);
    });

    it('orders finds urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD) without datasetProperties', async () => {
      const app = await testApp();
      try {
        const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)';
        const res = await app.call({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn, aspects: { status: { value: { removed: false } } } }] });
        assert.equal(res.status, 202);
        assert.deepEqual(await search(app, 'orders'), [urn]);
        assert.deepEqual(await search(app, 'hive'), [urn]);
        assert.deepEqual(await search(app, 'platform:hive'), [urn]);
      } finally {
        await app.app.close();
      }
    });

    it('returns the aspects asked for with the entities found', async () => {
      // datasetAspects is the shape the other tests write; check one round trip through the API.
      const urn = datasetUrn('feed.roundtrip');
      await writeBatch(t, 'dataset', [{ urn, aspects: datasetAspects({ name: 'roundtrip', tags: [tag('roundtrip')] }) }]);
      const res = await list(t, 'dataset', { query: 'name:roundtrip', aspects: 'globalTags' });
      assert.deepEqual(res.body.results, [{ urn, aspects: { globalTags: { value: globalTags([tag('roundtrip')]) } } }]);
    });
  });
});
