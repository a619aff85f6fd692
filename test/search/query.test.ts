import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testApp, type TestApp } from '../helpers.js';
import { datasetUrn, domain, group, invalid, list, scroll, search, sorted, tag, term, user, writeDatasets } from './fixtures.js';

/**
 * The query language end to end: what each kind of clause finds through GET /openapi/v2/entity/{type},
 * and the 400s for what does not parse or names what does not exist. (The parser alone is specified
 * in query-string.test.ts.) Results are asked in URN order (sort=urn) unless the order is the point.
 */

const KNOWN_FIELDS =
  "urn, name, qualifiedName, description, fieldPaths, platform, tags, glossaryTerms, owners, domains, subtypes, removed, structuredProperties.<name>, and 129 fields of DataHub's model, listed in docs/search.md";

// In URN order: B, A (hive), E (kafka), D, C (snowflake).
const A = datasetUrn('sales.orders');
const B = datasetUrn('sales.customers');
const C = datasetUrn('web.events', 'snowflake');
const D = datasetUrn('sales.order_lines', 'snowflake');
const E = datasetUrn('crm.daily', 'kafka');
const ALL = sorted([A, B, C, D, E]);

describe('search: the query language', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
    await writeDatasets(t, [
      [
        A,
        {
          name: 'orders',
          qualifiedName: 'sales.orders',
          description: 'Placed orders of customers',
          tags: [tag('pii')],
          owners: [user('jdoe')],
          terms: [term('Classification.Sensitive')],
          domains: [domain('finance')],
          subtypes: ['Table'],
          fieldPaths: ['order_id', 'amount'],
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
          subtypes: ['View'],
          fieldPaths: ['customer_id', 'email'],
        },
      ],
      [C, { name: 'Click Events', qualifiedName: 'web.events', tags: [tag('pii'), tag('gold')], owners: [user('alice')], subtypes: ['Table'] }],
      // Nothing but its URN (and a status, so that the batch has an aspect to write).
      [D, { removed: false }],
      [
        E,
        {
          name: 'Customer Orders Daily',
          qualifiedName: 'crm.customer_orders_daily',
          editableDescription: 'Refreshed nightly',
          owners: [user('jdoe'), group('analytics')],
          terms: [term('Classification.Public')],
        },
      ],
    ]);
  });
  after(() => t.app.close());

  describe('everything', () => {
    it('returns every entity of the type for *, in URN order, with the total', async () => {
      const res = await list(t, 'dataset', { query: '*' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results.map((r: { urn: string }) => r.urn), ALL);
      assert.equal(res.body.totalCount, 5);
    });

    it('treats an empty or blank query as *', async () => {
      assert.deepEqual(await search(t, ''), ALL);
      assert.deepEqual(await search(t, '   '), ALL);
    });

    it('searches only the entity type of the path', async () => {
      assert.deepEqual(await search(t, '*', {}, 'chart'), []);
      assert.deepEqual(await search(t, 'orders', {}, 'chart'), []);
    });
  });

  describe('free words', () => {
    it('finds a word in any text field: name, description, the URN', async () => {
      assert.deepEqual(await search(t, 'orders'), sorted([A, E]));
    });

    it('matches a free word as a prefix: ord finds orders, order_id and order_lines', async () => {
      assert.deepEqual(await search(t, 'ord'), sorted([A, D, E]));
    });

    it('ignores case', async () => {
      assert.deepEqual(await search(t, 'ORDERS'), sorted([A, E]));
      assert.deepEqual(await search(t, 'cLiCk'), [C]);
    });

    it('requires every free word (juxtaposition is AND)', async () => {
      assert.deepEqual(await search(t, 'orders customers'), [A]);
      assert.deepEqual(await search(t, 'customer nightly'), [E]);
    });

    it('finds a word that only the URN holds', async () => {
      assert.deepEqual(await search(t, 'lines'), [D]);
    });

    it('searches a word with punctuation as the phrase of its parts', async () => {
      assert.deepEqual(await search(t, 'order_lines'), [D]);
      assert.deepEqual(await search(t, 'customer_orders'), [E]);
    });

    it('finds words of field paths, tags, owners, terms, domains, subtypes, platform and the editable description', async () => {
      assert.deepEqual(await search(t, 'amount'), [A], 'field path');
      assert.deepEqual(await search(t, 'pii'), sorted([A, C]), 'tag');
      assert.deepEqual(await search(t, 'jdoe'), sorted([A, E]), 'owner');
      assert.deepEqual(await search(t, 'sensitive'), [A], 'glossary term');
      assert.deepEqual(await search(t, 'finance'), [A], 'domain');
      assert.deepEqual(await search(t, 'view'), [B], 'subtype');
      assert.deepEqual(await search(t, 'kafka'), [E], 'platform');
      assert.deepEqual(await search(t, 'nightly'), [E], 'editable description');
    });

    it('searches a dotted word as the phrase of its parts', async () => {
      assert.deepEqual(await search(t, 'sales.orders'), [A]);
      assert.deepEqual(await search(t, 'sales.order_lin'), [D]);
    });

    it('never answers 500 for punctuation or full-text syntax in words', async () => {
      for (const query of ["o'reilly", 'c++', '"col:umn"', 'a^2', '[x]', '{y}', '%', 'NEAR/2', '"orders" *', 'x"y', 'é']) {
        const res = await list(t, 'dataset', { query });
        assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      }
      assert.deepEqual(await search(t, '"col:umn"'), []);
    });

    it('finds the same entities ranked (no sort) as sorted by URN', async () => {
      for (const query of [
        'orders',
        'ord',
        'orders customers',
        'orders -tags:pii',
        'orders NOT platform:hive',
        'customer tags:gold',
        '"placed orders"',
        'ord platform:kafka',
        'orders (customers OR nightly)',
        'order_lin',
        'ord* _exists_:description',
      ]) {
        const ranked = await list(t, 'dataset', { query, count: 100 });
        const byUrn = await list(t, 'dataset', { query, count: 100, sort: 'urn' });
        assert.equal(ranked.status, 200, query);
        assert.deepEqual(sorted(ranked.body.results.map((r: { urn: string }) => r.urn)), byUrn.body.results.map((r: { urn: string }) => r.urn), query);
        assert.equal(ranked.body.totalCount, byUrn.body.totalCount, query);
        assert.equal(ranked.body.totalCount, ranked.body.results.length, query);
      }
    });

    it('finds nothing for a word nobody has', async () => {
      const res = await list(t, 'dataset', { query: 'zebra' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.results, []);
      assert.equal(res.body.totalCount, 0);
      assert.equal(res.body.scrollId, undefined);
    });
  });

  describe('phrases', () => {
    it('finds the words of a phrase in sequence', async () => {
      assert.deepEqual(await search(t, '"placed orders"'), [A]);
      assert.deepEqual(await search(t, '"customer orders"'), [E]);
    });

    it('does not find the words of a phrase in another order', async () => {
      assert.deepEqual(await search(t, '"orders placed"'), []);
    });

    it('does not treat the last word of a phrase as a prefix', async () => {
      assert.deepEqual(await search(t, '"placed ord"'), []);
    });
  });

  describe('text fields', () => {
    it('name:value matches a whole name or a word in it, ignoring case', async () => {
      assert.deepEqual(await search(t, 'name:orders'), sorted([A, E]));
      assert.deepEqual(await search(t, 'name:ORDERS'), sorted([A, E]));
      assert.deepEqual(await search(t, 'name:"customer orders daily"'), [E]);
      assert.deepEqual(await search(t, 'name:click'), [C]);
    });

    it('name:value is not a prefix match without *', async () => {
      assert.deepEqual(await search(t, 'name:order'), []);
    });

    it('name:val* is a prefix of the name or of a word in it', async () => {
      assert.deepEqual(await search(t, 'name:ord*'), sorted([A, E]));
      assert.deepEqual(await search(t, 'name:cust*'), sorted([B, E]));
    });

    it('looks only at the field named: a word of the description is not a name', async () => {
      assert.deepEqual(await search(t, 'name:placed'), []);
      assert.deepEqual(await search(t, 'description:placed'), [A]);
    });

    it('qualifiedName:value matches the whole qualified name', async () => {
      assert.deepEqual(await search(t, 'qualifiedName:sales.orders'), [A]);
      assert.deepEqual(await search(t, 'qualifiedName:crm.customer_orders_daily'), [E]);
    });

    it('qualifiedName:val* is a prefix of the whole qualified name', async () => {
      assert.deepEqual(await search(t, 'qualifiedName:sales.ord*'), [A]);
      assert.deepEqual(await search(t, 'qualifiedName:sales.*'), sorted([A, B]));
    });

    it('description:value matches a word of either description, exactly unless a prefix', async () => {
      assert.deepEqual(await search(t, 'description:customers'), [A]);
      assert.deepEqual(await search(t, 'description:customer'), [B]);
      assert.deepEqual(await search(t, 'description:customer*'), sorted([A, B]));
      assert.deepEqual(await search(t, 'description:nightly'), [E]);
    });

    it('fieldPaths:value matches a schema field path', async () => {
      assert.deepEqual(await search(t, 'fieldPaths:amount'), [A]);
      assert.deepEqual(await search(t, 'fieldPaths:customer_id'), [B]);
      assert.deepEqual(await search(t, 'fieldPaths:email'), [B]);
    });
  });

  describe('URN fields', () => {
    it('tags take the short form or the whole URN', async () => {
      assert.deepEqual(await search(t, 'tags:pii'), sorted([A, C]));
      assert.deepEqual(await search(t, 'tags:urn:li:tag:pii'), sorted([A, C]));
      assert.deepEqual(await search(t, 'tags:"urn:li:tag:gold"'), sorted([B, C]));
    });

    it('owners:name matches a user or a group of that name', async () => {
      assert.deepEqual(await search(t, 'owners:jdoe'), sorted([A, E]));
      assert.deepEqual(await search(t, 'owners:analytics'), sorted([B, E]));
      assert.deepEqual(await search(t, 'owners:urn:li:corpGroup:analytics'), sorted([B, E]));
      assert.deepEqual(await search(t, 'owners:urn:li:corpuser:analytics'), []);
    });

    it('platform takes the platform name (from the URN, without any other aspect)', async () => {
      assert.deepEqual(await search(t, 'platform:hive'), sorted([A, B]));
      assert.deepEqual(await search(t, 'platform:snowflake'), sorted([C, D]));
      assert.deepEqual(await search(t, 'platform:urn:li:dataPlatform:kafka'), [E]);
    });

    it('domains, glossaryTerms and subtypes match their values', async () => {
      assert.deepEqual(await search(t, 'domains:finance'), [A]);
      assert.deepEqual(await search(t, 'domains:urn:li:domain:marketing'), [B]);
      assert.deepEqual(await search(t, 'glossaryTerms:Classification.Sensitive'), [A]);
      assert.deepEqual(await search(t, 'glossaryTerms:Classification.*'), sorted([A, E]));
      assert.deepEqual(await search(t, 'subtypes:Table'), sorted([A, C]));
      assert.deepEqual(await search(t, 'subtypes:View'), [B]);
    });

    it('urn:"…" finds one entity', async () => {
      assert.deepEqual(await search(t, `urn:"${A}"`), [A]);
      assert.deepEqual(await search(t, `urn:"${datasetUrn('nope')}"`), []);
    });
  });

  describe('boolean logic', () => {
    it('AND, &&, and juxtaposition all require both', async () => {
      assert.deepEqual(await search(t, 'tags:pii AND owners:jdoe'), [A]);
      assert.deepEqual(await search(t, 'tags:pii && platform:snowflake'), [C]);
      assert.deepEqual(await search(t, 'tags:pii platform:snowflake'), [C]);
    });

    it('OR and || accept either', async () => {
      assert.deepEqual(await search(t, 'tags:pii OR domains:marketing'), sorted([A, B, C]));
      assert.deepEqual(await search(t, 'subtypes:View || owners:alice'), sorted([B, C]));
      assert.deepEqual(await search(t, 'lines OR nightly'), sorted([D, E]));
    });

    it('NOT excludes, including entities that have no value of the field', async () => {
      assert.deepEqual(await search(t, 'NOT tags:pii'), sorted([B, D, E]));
    });

    it('-clause is NOT', async () => {
      assert.deepEqual(await search(t, '-tags:pii'), sorted([B, D, E]));
      assert.deepEqual(await search(t, 'tags:gold -tags:pii'), [B]);
    });

    it('! is NOT', async () => {
      assert.deepEqual(await search(t, '!tags:pii'), sorted([B, D, E]));
    });

    it('negates free words and phrases', async () => {
      assert.deepEqual(await search(t, 'NOT orders'), sorted([B, C, D]));
      assert.deepEqual(await search(t, 'customer -"customer orders"'), sorted([A, B]));
    });

    it('AND binds tighter than OR', async () => {
      assert.deepEqual(await search(t, 'tags:gold OR tags:pii AND platform:hive'), sorted([A, B, C]));
    });

    it('parentheses group', async () => {
      assert.deepEqual(await search(t, '(tags:gold OR tags:pii) AND platform:hive'), sorted([A, B]));
      assert.deepEqual(await search(t, 'NOT (tags:pii OR tags:gold)'), sorted([D, E]));
      assert.deepEqual(await search(t, '(owners:jdoe -tags:pii) OR (platform:snowflake AND NOT _exists_:tags)'), sorted([D, E]));
    });

    it('* inside an AND matches everything the rest matches', async () => {
      assert.deepEqual(await search(t, '* AND tags:gold'), sorted([B, C]));
    });
  });

  describe('existence', () => {
    it('_exists_:description finds entities with a description from either aspect', async () => {
      assert.deepEqual(await search(t, '_exists_:description'), sorted([A, B, E]));
    });

    it('_exists_ works for keyword and text fields', async () => {
      assert.deepEqual(await search(t, '_exists_:tags'), sorted([A, B, C]));
      assert.deepEqual(await search(t, '_exists_:fieldPaths'), sorted([A, B]));
      assert.deepEqual(await search(t, '_exists_:name'), sorted([A, B, C, E]));
      assert.deepEqual(await search(t, '_exists_:qualifiedName'), sorted([A, B, C, E]));
      assert.deepEqual(await search(t, '_exists_:glossaryTerms'), sorted([A, E]));
      assert.deepEqual(await search(t, '_exists_:domains'), sorted([A, B]));
    });

    it('field:* is _exists_:field', async () => {
      assert.deepEqual(await search(t, 'tags:*'), sorted([A, B, C]));
      assert.deepEqual(await search(t, 'description:*'), sorted([A, B, E]));
    });

    it('NOT _exists_ finds entities without the field', async () => {
      assert.deepEqual(await search(t, 'NOT _exists_:description'), sorted([C, D]));
      assert.deepEqual(await search(t, '-_exists_:owners'), sorted([D]));
    });
  });

  describe('errors', () => {
    const rejects = async (query: string, message: string) => {
      const res = await list(t, 'dataset', { query });
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, invalid(message), query);
    };

    it('answers 400 with the column for a parenthesis right after field:', async () => {
      await rejects('name:(orders)', 'Invalid query at column 6: unexpected "(" after "name:" (quote a value that contains parentheses)');
    });

    it('answers 400 for an unclosed parenthesis, pointing at it', async () => {
      await rejects('tags:pii AND (orders', 'Invalid query at column 14: missing closing ")"');
    });

    it('answers 400 for a stray closing parenthesis', async () => {
      await rejects('orders)', 'Invalid query at column 7: unexpected ")"');
    });

    it('answers 400 for an operator without an operand', async () => {
      await rejects('orders AND', 'Invalid query at column 11: expected a query after AND');
      await rejects('OR orders', 'Invalid query at column 1: expected a query before OR');
    });

    it('answers 400 for an unterminated phrase', async () => {
      await rejects('name:"placed orders', 'Invalid query at column 6: unterminated phrase (missing closing ")');
    });

    it('answers 400 for field: without a value', async () => {
      await rejects('tags: pii', 'Invalid query at column 6: expected a value after "tags:"');
    });

    it('answers 400 naming an unknown field, at its column, with the known fields', async () => {
      await rejects('foo:bar', `Invalid query at column 1: Unknown search field foo (known: ${KNOWN_FIELDS})`);
      await rejects('orders AND foo:bar', `Invalid query at column 12: Unknown search field foo (known: ${KNOWN_FIELDS})`);
    });

    it('answers 400 for an unknown field in _exists_ and in ranges', async () => {
      await rejects('_exists_:colour', `Invalid query at column 1: Unknown search field colour (known: ${KNOWN_FIELDS})`);
      await rejects('tags:pii size:>3', `Invalid query at column 10: Unknown search field size (known: ${KNOWN_FIELDS})`);
    });

    it('answers 400 naming an unknown structured property', async () => {
      await rejects('structuredProperties.nope:1', 'Invalid query at column 1: Unknown structured property structuredProperties.nope');
      await rejects('orders OR structuredProperties.nope:>1', 'Invalid query at column 11: Unknown structured property structuredProperties.nope');
    });

    it('answers 400 for a range on a field that has no order', async () => {
      await rejects('tags:>5', 'Invalid query at column 1: tags: ranges are not supported');
      await rejects('description:>x', 'Invalid query at column 1: description: ranges are not supported on text');
    });

    it('answers 400 for removed: with something other than true or false', async () => {
      await rejects('removed:maybe', 'Invalid query at column 1: removed: expected true or false, got maybe');
    });

    it('reports a syntax error before an unknown field', async () => {
      await rejects('foo:bar AND (', 'Invalid query at column 13: missing closing ")"');
    });

    it('answers the same 400 from the v2 and v3 scroll endpoints', async () => {
      for (const version of [2, 3] as const) {
        const res = await scroll(t, { entities: ['dataset'] }, { query: 'name:(orders)' }, version);
        assert.equal(res.status, 400, `v${version}`);
        assert.deepEqual(res.body, invalid('Invalid query at column 6: unexpected "(" after "name:" (quote a value that contains parentheses)'));
        const unknown = await scroll(t, {}, { query: 'foo:bar' }, version);
        assert.equal(unknown.status, 400, `v${version}`);
        assert.deepEqual(unknown.body, invalid(`Invalid query at column 1: Unknown search field foo (known: ${KNOWN_FIELDS})`));
      }
    });
  });
});
