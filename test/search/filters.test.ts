import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { defineProperty } from '../structured/fixtures.js';
import {
  chartInfo,
  datasetUrn,
  domain,
  filtered,
  group,
  invalid,
  list,
  platform,
  scroll,
  search,
  sorted,
  tag,
  user,
  where,
  write,
  writeDatasets,
} from './fixtures.js';

/**
 * Scroll-body filters (every condition, negated, groups) and structured-property values compared by
 * their definitions' types, in filters and in the query language.
 */

const KNOWN_FIELDS =
  "urn, name, qualifiedName, description, fieldPaths, platform, tags, glossaryTerms, owners, domains, subtypes, removed, structuredProperties.<name>, and 129 fields of DataHub's model, listed in docs/search.md";

const RETENTION = 'structuredProperties.retention';
const CREATED = 'structuredProperties.created';
const TIER = 'structuredProperties.com.example.tier';
const REGIONS = 'structuredProperties.regions';
const SCORES = 'structuredProperties.scores';

// In URN order: B, A (hive), E (kafka), D, C (snowflake).
const A = datasetUrn('sales.orders');
const B = datasetUrn('sales.customers');
const C = datasetUrn('web.events', 'snowflake');
const D = datasetUrn('sales.order_lines', 'snowflake');
const E = datasetUrn('crm.daily', 'kafka');

// 2024-05-01T00:00:00Z in epoch milliseconds.
const MAY_FIRST_2024 = Date.UTC(2024, 4, 1);

describe('search: filters and structured properties', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    const retention = await defineProperty(t, 'retention', { valueType: 'urn:li:dataType:datahub.number' });
    const created = await defineProperty(t, 'created', { valueType: 'urn:li:dataType:datahub.date' });
    const tier = await defineProperty(t, 'com.example.tier');
    const regions = await defineProperty(t, 'regions', { cardinality: 'MULTIPLE' });
    const scores = await defineProperty(t, 'scores', { valueType: 'urn:li:dataType:datahub.number', cardinality: 'MULTIPLE' });
    const values = (retentionDays: number | undefined, date: string | undefined, tierName: string | undefined, regionList: string[], scoreList: number[]) => [
      ...(retentionDays === undefined ? [] : [{ propertyUrn: retention, values: [{ double: retentionDays }] }]),
      ...(date === undefined ? [] : [{ propertyUrn: created, values: [{ string: date }] }]),
      ...(tierName === undefined ? [] : [{ propertyUrn: tier, values: [{ string: tierName }] }]),
      ...(regionList.length === 0 ? [] : [{ propertyUrn: regions, values: regionList.map((r) => ({ string: r })) }]),
      ...(scoreList.length === 0 ? [] : [{ propertyUrn: scores, values: scoreList.map((s) => ({ double: s })) }]),
    ];
    await writeDatasets(t, [
      [
        A,
        {
          name: 'orders',
          qualifiedName: 'sales.orders',
          description: 'Placed orders of customers',
          tags: [tag('pii')],
          owners: [user('jdoe')],
          domains: [domain('finance')],
          properties: values(9, '2024-05-01', 'gold', ['eu', 'us'], [1, 50]),
        },
      ],
      [
        B,
        {
          name: 'customers',
          qualifiedName: 'sales.customers',
          description: 'Customer master data',
          tags: [tag('gold')],
          owners: [group('analytics')],
          domains: [domain('marketing')],
          properties: values(10, '2024-12-31', 'silver', ['us'], [20]),
        },
      ],
      [C, { name: 'Click Events', qualifiedName: 'web.events', tags: [tag('pii'), tag('gold')], owners: [user('alice')], properties: values(100, '2023-12-31', 'gold-plus', ['apac'], []) }],
      [D, { removed: false }],
      [
        E,
        {
          name: 'Customer Orders Daily',
          qualifiedName: 'crm.customer_orders_daily',
          editableDescription: 'Refreshed nightly',
          owners: [user('jdoe'), group('analytics')],
          properties: values(250, undefined, 'bronze', [], []),
        },
      ],
    ]);
    // A chart, so that filters across types have something else to find.
    await write(t, 'chart', 'urn:li:chart:(looker,orders)', 'chartInfo', chartInfo('orders'));
    await write(t, 'chart', 'urn:li:chart:(looker,orders)', 'globalTags', { tags: [{ tag: tag('pii') }] });
  });
  after(() => t.app.close());

  const criterion = (field: string, condition: string | undefined, values: Array<string | number> | undefined, negated?: boolean) => ({
    field,
    ...(condition === undefined ? {} : { condition }),
    ...(values === undefined ? {} : { values: values.map(String) }),
    ...(negated === undefined ? {} : { negated }),
  });
  const only = (field: string, condition: string | undefined, values?: Array<string | number>, negated?: boolean) =>
    filtered(t, where(criterion(field, condition, values, negated)));

  describe('conditions on names', () => {
    it('EQUAL matches the whole name only, ignoring case', async () => {
      assert.deepEqual(await only('name', 'EQUAL', ['ORDERS']), [A]);
      assert.deepEqual(await only('name', 'EQUAL', ['customer orders daily']), [E]);
      assert.deepEqual(await only('name', 'EQUAL', ['customer']), []);
    });

    it('EQUAL is the default condition', async () => {
      assert.deepEqual(await only('name', undefined, ['orders']), [A]);
    });

    it('IN matches any of the whole names', async () => {
      assert.deepEqual(await only('name', 'IN', ['orders', 'Customers', 'nobody']), sorted([A, B]));
    });

    it('CONTAIN is a substring of the whole name, ignoring case', async () => {
      assert.deepEqual(await only('name', 'CONTAIN', ['ORDER']), sorted([A, E]));
      assert.deepEqual(await only('name', 'CONTAIN', ['k ev']), [C]);
    });

    it('STARTS_WITH is a prefix of the whole name', async () => {
      assert.deepEqual(await only('name', 'STARTS_WITH', ['Cust']), sorted([B, E]));
      assert.deepEqual(await only('name', 'STARTS_WITH', ['orders daily']), []);
    });

    it('ENDS_WITH is a suffix of the whole name', async () => {
      assert.deepEqual(await only('name', 'ENDS_WITH', ['ERS']), sorted([A, B]));
      assert.deepEqual(await only('name', 'ENDS_WITH', ['daily']), [E]);
    });

    it('EXISTS needs no value', async () => {
      assert.deepEqual(await only('name', 'EXISTS'), sorted([A, B, C, E]));
    });

    it('applies to qualifiedName as well', async () => {
      assert.deepEqual(await only('qualifiedName', 'EQUAL', ['Sales.Orders']), [A]);
      assert.deepEqual(await only('qualifiedName', 'STARTS_WITH', ['sales.']), sorted([A, B]));
      assert.deepEqual(await only('qualifiedName', 'ENDS_WITH', ['.events']), [C]);
      assert.deepEqual(await only('qualifiedName', 'CONTAIN', ['_orders_']), [E]);
    });
  });

  describe('conditions on URN and text fields', () => {
    it('EQUAL on tags takes the whole URN or the short form', async () => {
      assert.deepEqual(await only('tags', 'EQUAL', [tag('pii')]), sorted([A, C]));
      assert.deepEqual(await only('tags', 'EQUAL', ['pii']), sorted([A, C]));
    });

    it('IN on tags matches any of the values', async () => {
      assert.deepEqual(await only('tags', 'IN', [tag('pii'), tag('gold')]), sorted([A, B, C]));
    });

    it('CONTAIN, STARTS_WITH and ENDS_WITH compare the URN values', async () => {
      assert.deepEqual(await only('owners', 'STARTS_WITH', ['urn:li:corpGroup:']), sorted([B, E]));
      assert.deepEqual(await only('owners', 'ENDS_WITH', [':jdoe']), sorted([A, E]));
      assert.deepEqual(await only('owners', 'CONTAIN', ['ali']), [C]);
    });

    it('EQUAL on platform and domains', async () => {
      assert.deepEqual(await only('platform', 'EQUAL', [platform('snowflake')]), sorted([C, D]));
      assert.deepEqual(await only('domains', 'EQUAL', [domain('finance')]), [A]);
    });

    it('EXISTS on a keyword field and on a text-only field', async () => {
      assert.deepEqual(await only('tags', 'EXISTS'), sorted([A, B, C]));
      assert.deepEqual(await only('description', 'EXISTS'), sorted([A, B, E]));
    });

    it('EQUAL on description matches a word of it', async () => {
      assert.deepEqual(await only('description', 'EQUAL', ['nightly']), [E]);
    });

    it('CONTAIN and ENDS_WITH take _ and % literally', async () => {
      assert.deepEqual(await only('qualifiedName', 'CONTAIN', ['_']), [E]);
      assert.deepEqual(await only('qualifiedName', 'CONTAIN', ['%']), []);
      assert.deepEqual(await only('qualifiedName', 'ENDS_WITH', ['_daily']), [E]);
      assert.deepEqual(await only('name', 'CONTAIN', ['_']), []);
    });

    it('STARTS_WITH on urn', async () => {
      assert.deepEqual(await only('urn', 'STARTS_WITH', ['urn:li:dataset:(urn:li:dataPlatform:snowflake,']), sorted([C, D]));
    });

    it("accepts a criterion's single value as value", async () => {
      assert.deepEqual(await filtered(t, where({ field: 'tags', condition: 'EQUAL', value: tag('gold') })), sorted([B, C]));
    });

    it("accepts DataHub's {criteria: [...]} filter", async () => {
      assert.deepEqual(await filtered(t, { criteria: [criterion('tags', 'EQUAL', [tag('pii')]), criterion('owners', 'EQUAL', [user('alice')])] }), [C]);
    });

    it('EQUAL on urn finds the entity', async () => {
      assert.deepEqual(await only('urn', 'EQUAL', [C]), [C]);
      assert.deepEqual(await only('urn', 'IN', [C, A]), sorted([A, C]));
    });
  });

  describe('negated criteria', () => {
    it('negated EQUAL excludes the value, keeping entities without the field', async () => {
      assert.deepEqual(await only('tags', 'EQUAL', [tag('pii')], true), sorted([B, D, E]));
    });

    it('negated IN excludes every value', async () => {
      assert.deepEqual(await only('tags', 'IN', [tag('pii'), tag('gold')], true), sorted([D, E]));
    });

    it('negated EXISTS finds entities without the field', async () => {
      assert.deepEqual(await only('tags', 'EXISTS', undefined, true), sorted([D, E]));
      assert.deepEqual(await only('description', 'EXISTS', undefined, true), sorted([C, D]));
    });

    it('negated CONTAIN, STARTS_WITH and ENDS_WITH', async () => {
      assert.deepEqual(await only('name', 'CONTAIN', ['order'], true), sorted([B, C, D]));
      assert.deepEqual(await only('name', 'STARTS_WITH', ['cust'], true), sorted([A, C, D]));
      assert.deepEqual(await only('name', 'ENDS_WITH', ['ers'], true), sorted([C, D, E]));
    });

    it('negated comparisons keep entities without a value', async () => {
      assert.deepEqual(await only(RETENTION, 'GREATER_THAN', ['9'], true), sorted([A, D]));
      assert.deepEqual(await only(CREATED, 'LESS_THAN', ['2024-06-01'], true), sorted([B, D, E]));
    });

    it('negated GREATER_THAN_OR_EQUAL_TO and LESS_THAN_OR_EQUAL_TO', async () => {
      assert.deepEqual(await only(RETENTION, 'GREATER_THAN_OR_EQUAL_TO', ['100'], true), sorted([A, B, D]));
      assert.deepEqual(await only(RETENTION, 'LESS_THAN_OR_EQUAL_TO', ['10'], true), sorted([C, D, E]));
    });

    it('negated: false is the plain criterion', async () => {
      assert.deepEqual(await only('tags', 'EQUAL', [tag('pii')], false), sorted([A, C]));
    });
  });

  describe('numbers', () => {
    it('GREATER_THAN compares numerically: 9 < 10 although "9" > "10"', async () => {
      assert.deepEqual(await only(RETENTION, 'GREATER_THAN', ['9']), sorted([B, C, E]));
      assert.deepEqual(await only(RETENTION, 'GREATER_THAN', ['100']), [E]);
    });

    it('GREATER_THAN_OR_EQUAL_TO includes the bound', async () => {
      assert.deepEqual(await only(RETENTION, 'GREATER_THAN_OR_EQUAL_TO', ['100']), sorted([C, E]));
    });

    it('LESS_THAN and LESS_THAN_OR_EQUAL_TO', async () => {
      assert.deepEqual(await only(RETENTION, 'LESS_THAN', ['10']), [A]);
      assert.deepEqual(await only(RETENTION, 'LESS_THAN_OR_EQUAL_TO', ['10']), sorted([A, B]));
      assert.deepEqual(await only(RETENTION, 'LESS_THAN', ['9']), []);
    });

    it('EQUAL and IN compare numerically', async () => {
      assert.deepEqual(await only(RETENTION, 'EQUAL', ['100']), [C]);
      assert.deepEqual(await only(RETENTION, 'EQUAL', ['100.0']), [C]);
      assert.deepEqual(await only(RETENTION, 'IN', ['9', '250']), sorted([A, E]));
    });

    it('a comparison with a fraction', async () => {
      assert.deepEqual(await only(RETENTION, 'GREATER_THAN', ['9.5']), sorted([B, C, E]));
    });

    it('a MULTIPLE property matches when any of its values does', async () => {
      assert.deepEqual(await only(SCORES, 'GREATER_THAN', ['10']), sorted([A, B]));
      assert.deepEqual(await only(SCORES, 'LESS_THAN', ['10']), [A]);
      assert.deepEqual(await only(SCORES, 'EQUAL', ['50']), [A]);
    });

    it('EXISTS on a number property', async () => {
      assert.deepEqual(await only(RETENTION, 'EXISTS'), sorted([A, B, C, E]));
      assert.deepEqual(await search(t, `_exists_:${SCORES}`), sorted([A, B]));
    });

    it('in the query language: :>, :>=, :<, :<= and :value', async () => {
      assert.deepEqual(await search(t, `${RETENTION}:>100`), [E]);
      assert.deepEqual(await search(t, `${RETENTION}:>9`), sorted([B, C, E]));
      assert.deepEqual(await search(t, `${RETENTION}:>=100`), sorted([C, E]));
      assert.deepEqual(await search(t, `${RETENTION}:<10`), [A]);
      assert.deepEqual(await search(t, `${RETENTION}:<=10`), sorted([A, B]));
      assert.deepEqual(await search(t, `${RETENTION}:100`), [C]);
    });

    it('a range in the query combines with other clauses', async () => {
      assert.deepEqual(await search(t, `${RETENTION}:>=10 AND ${RETENTION}:<=100`), sorted([B, C]));
      assert.deepEqual(await search(t, `${RETENTION}:>9 -tags:pii`), sorted([B, E]));
    });

    it('answers 400 naming the field when a number is compared with a non-number', async () => {
      const res = await list(t, 'dataset', { query: `${RETENTION}:>abc` });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(`Invalid query at column 1: ${RETENTION}: expected a number, got "abc"`));
      const equal = await list(t, 'dataset', { query: `tags:pii ${RETENTION}:lots` });
      assert.equal(equal.status, 400);
      assert.deepEqual(equal.body, invalid(`Invalid query at column 10: ${RETENTION}: expected a number, got "lots"`));
    });

    it('answers 400 naming the field for a filter comparing a number with a non-number', async () => {
      const res = await scroll(t, { filter: where(criterion('tags', 'EXISTS', undefined), criterion(RETENTION, 'GREATER_THAN', ['abc'])) });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(`filter.and[0].criteria[1]: ${RETENTION}: expected a number, got "abc"`));
    });

    it('answers 400 for a string condition on a number property', async () => {
      const res = await scroll(t, { filter: where(criterion(RETENTION, 'STARTS_WITH', ['1'])) });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(`filter.and[0].criteria[0]: ${RETENTION}: a number property compares with =, <, <=, > or >=`));
    });
  });

  describe('dates', () => {
    it('compares dates as dates', async () => {
      assert.deepEqual(await only(CREATED, 'GREATER_THAN', ['2024-06-01']), [B]);
      assert.deepEqual(await only(CREATED, 'LESS_THAN', ['2024-05-01']), [C]);
      assert.deepEqual(await only(CREATED, 'GREATER_THAN_OR_EQUAL_TO', ['2024-05-01']), sorted([A, B]));
      assert.deepEqual(await only(CREATED, 'LESS_THAN_OR_EQUAL_TO', ['2024-05-01']), sorted([A, C]));
    });

    it('compares with epoch milliseconds', async () => {
      assert.deepEqual(await only(CREATED, 'GREATER_THAN', [String(MAY_FIRST_2024)]), [B]);
      assert.deepEqual(await only(CREATED, 'GREATER_THAN_OR_EQUAL_TO', [String(MAY_FIRST_2024)]), sorted([A, B]));
    });

    it('EQUAL matches the date', async () => {
      assert.deepEqual(await only(CREATED, 'EQUAL', ['2024-05-01']), [A]);
    });

    it('in the query language', async () => {
      assert.deepEqual(await search(t, `${CREATED}:>2024-06-01`), [B]);
      assert.deepEqual(await search(t, `${CREATED}:<2024-12-31`), sorted([A, C]));
      assert.deepEqual(await search(t, `${CREATED}:>=${MAY_FIRST_2024}`), sorted([A, B]));
      assert.deepEqual(await search(t, `${CREATED}:2023-12-31`), [C]);
    });

    it('answers 400 naming the field for something that is not a date', async () => {
      const res = await list(t, 'dataset', { query: `${CREATED}:>soon` });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, invalid(`Invalid query at column 1: ${CREATED}: expected a date (YYYY-MM-DD) or epoch milliseconds, got "soon"`));
    });
  });

  describe('strings', () => {
    it('EQUAL is exact', async () => {
      assert.deepEqual(await only(TIER, 'EQUAL', ['gold']), [A]);
      assert.deepEqual(await only(TIER, 'EQUAL', ['gol']), []);
    });

    it('STARTS_WITH, ENDS_WITH, CONTAIN', async () => {
      assert.deepEqual(await only(TIER, 'STARTS_WITH', ['gold']), sorted([A, C]));
      assert.deepEqual(await only(TIER, 'ENDS_WITH', ['ver']), [B]);
      assert.deepEqual(await only(TIER, 'CONTAIN', ['ron']), [E]);
    });

    it('IN and EXISTS', async () => {
      assert.deepEqual(await only(TIER, 'IN', ['silver', 'bronze']), sorted([B, E]));
      assert.deepEqual(await only(TIER, 'EXISTS'), sorted([A, B, C, E]));
      assert.deepEqual(await only(TIER, 'EXISTS', undefined, true), [D]);
    });

    it('a MULTIPLE property matches when any of its values does', async () => {
      assert.deepEqual(await only(REGIONS, 'EQUAL', ['us']), sorted([A, B]));
      assert.deepEqual(await only(REGIONS, 'EQUAL', ['us'], true), sorted([C, D, E]));
    });

    it('in the query language: exact, or a prefix with *', async () => {
      assert.deepEqual(await search(t, `${TIER}:gold`), [A]);
      assert.deepEqual(await search(t, `${TIER}:gol*`), sorted([A, C]));
      assert.deepEqual(await search(t, `${TIER}:"gold-plus"`), [C]);
      assert.deepEqual(await search(t, `_exists_:${REGIONS}`), sorted([A, B, C]));
      assert.deepEqual(await search(t, `NOT ${TIER}:gold`), sorted([B, C, D, E]));
    });

    it("accepts DataHub's underscore form of a qualified name", async () => {
      assert.deepEqual(await search(t, 'structuredProperties.com_example_tier:gold'), [A]);
      assert.deepEqual(await only('structuredProperties.com_example_tier', 'IN', ['silver', 'gold-plus']), sorted([B, C]));
    });
  });

  describe('groups', () => {
    it('ANDs the criteria of a group', async () => {
      const filter = where(criterion('tags', 'EQUAL', [tag('pii')]), criterion('platform', 'EQUAL', [platform('snowflake')]));
      assert.deepEqual(await filtered(t, filter), [C]);
    });

    it('ORs the groups', async () => {
      const filter = {
        and: [{ criteria: [criterion('tags', 'EQUAL', [tag('pii')]), criterion('owners', 'EQUAL', [user('jdoe')])] }, { criteria: [criterion('domains', 'EQUAL', [domain('marketing')])] }],
      };
      assert.deepEqual(await filtered(t, filter), sorted([A, B]));
    });

    it("accepts DataHub's {or: [{and: [criterion…]}]}", async () => {
      const filter = {
        or: [{ and: [criterion('tags', 'EQUAL', [tag('gold')]), criterion('platform', 'EQUAL', [platform('hive')])] }, { and: [criterion(RETENTION, 'GREATER_THAN', ['200'])] }],
      };
      assert.deepEqual(await filtered(t, filter), sorted([B, E]));
    });

    it('ANDs the filter with the query', async () => {
      assert.deepEqual(await filtered(t, where(criterion('tags', 'EQUAL', [tag('pii')])), { query: 'orders' }), [A]);
      assert.deepEqual(await filtered(t, where(criterion('tags', 'EQUAL', [tag('pii')])), { query: 'platform:snowflake' }), [C]);
    });

    it('filters every entity type named, or all types when none is', async () => {
      const pii = where(criterion('tags', 'EQUAL', [tag('pii')]));
      assert.deepEqual(await filtered(t, pii, {}, ['dataset', 'chart']), sorted([A, C, 'urn:li:chart:(looker,orders)']));
      assert.deepEqual(await filtered(t, pii, {}, ['chart']), ['urn:li:chart:(looker,orders)']);
      const res = await scroll(t, { filter: pii }, { count: 100 });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), sorted([A, C, 'urn:li:chart:(looker,orders)']));
      assert.equal(res.body.totalCount, 3);
    });

    it('an empty filter matches everything', async () => {
      assert.deepEqual(await filtered(t, { and: [] }), sorted([A, B, C, D, E]));
    });

    it('a group without criteria matches everything, alone or OR\'ed with others', async () => {
      assert.deepEqual(await filtered(t, { or: [{ and: [] }] }), sorted([A, B, C, D, E]));
      assert.deepEqual(await filtered(t, { and: [{ criteria: [] }, { criteria: [criterion('tags', 'EQUAL', [tag('pii')])] }] }), sorted([A, B, C, D, E]));
    });

    it('the v3 scroll filters the same way', async () => {
      const res = await scroll(t, { entities: ['dataset'], filter: where(criterion(RETENTION, 'GREATER_THAN', ['9'])) }, { count: 100 }, 3);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.entities.map((e: { urn: string }) => e.urn), sorted([B, C, E]));
      assert.equal(res.body.totalCount, 3);
    });
  });

  describe('errors', () => {
    const rejects = async (filter: unknown, message: string) => {
      for (const version of [2, 3] as const) {
        const res = await scroll(t, { entities: ['dataset'], filter }, {}, version);
        assert.equal(res.status, 400, `v${version}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(res.body, invalid(message), `v${version}`);
      }
    };

    it('answers 400 for an unknown field, naming the criterion', async () => {
      await rejects(where(criterion('tags', 'EXISTS', undefined), criterion('foo', 'EQUAL', ['x'])), `filter.and[0].criteria[1]: Unknown search field foo (known: ${KNOWN_FIELDS})`);
      await rejects({ or: [{ and: [criterion('tags', 'EXISTS', undefined)] }, { and: [criterion('foo', 'EQUAL', ['x'])] }] }, `filter.or[1].criteria[0]: Unknown search field foo (known: ${KNOWN_FIELDS})`);
    });

    it('answers 400 for an unknown structured property', async () => {
      await rejects(where(criterion('structuredProperties.nope', 'EQUAL', ['x'])), 'filter.and[0].criteria[0]: Unknown structured property structuredProperties.nope');
    });

    it('answers 400 for an unknown condition', async () => {
      await rejects(
        where(criterion('name', 'LIKE', ['x'])),
        'filter.and[0].criteria[0].condition: unknown condition "LIKE" (known: EQUAL, IN, CONTAIN, STARTS_WITH, ENDS_WITH, EXISTS, GREATER_THAN, GREATER_THAN_OR_EQUAL_TO, LESS_THAN, LESS_THAN_OR_EQUAL_TO)',
      );
    });

    it('answers 400 for a condition without a value', async () => {
      await rejects(where(criterion('name', 'EQUAL', [])), 'filter.and[0].criteria[0].values: EQUAL needs a value');
    });

    it('answers 400 for a comparison with more than one value', async () => {
      await rejects(where(criterion(RETENTION, 'GREATER_THAN', ['1', '2'])), `filter.and[0].criteria[0]: a comparison takes exactly one value, got 2`);
    });

    it('answers 400 for a filter of the wrong shape', async () => {
      await rejects({ and: [{ nope: [] }] }, 'filter.and[0] must be {"criteria": [...]}');
    });
  });
});
