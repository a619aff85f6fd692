import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { anyText, hostileUrn, INVALID_UTF8, mutated, PROTOTYPE_KEYS, SEED_DATASETS, SEED_PROPERTY, SEED_TEST, wellFormedUrn } from './hostile-values.js';

/**
 * Request bodies for every route: well-formed ones (so requests get deep into the write path),
 * the same with a part replaced, random JSON, and bytes that are hardly JSON at all: nesting
 * past the limit, huge arrays, prototype keys, invalid UTF-8, truncations.
 */

interface AspectExamples {
  valid: unknown[];
  invalid: Array<{ value: unknown }>;
}
const EXAMPLES = JSON.parse(readFileSync(new URL('../../../test/fixtures/aspect-examples.json', import.meta.url), 'utf8')) as Record<string, AspectExamples>;
export const EXAMPLE_ASPECTS = Object.keys(EXAMPLES);

/** An aspect value: an example of that aspect (valid or not), another aspect's, or any JSON. */
export function aspectValue(aspect: string): fc.Arbitrary<unknown> {
  const own = [...(EXAMPLES[aspect]?.valid ?? []), ...(EXAMPLES[aspect]?.invalid ?? []).map((i) => i.value)];
  const anyExample = Object.values(EXAMPLES).flatMap((e) => e.valid ?? []);
  return fc.oneof(
    { weight: own.length > 0 ? 6 : 0, arbitrary: own.length > 0 ? fc.constantFrom(...own) : fc.constant({}) },
    { weight: 2, arbitrary: fc.constantFrom(...anyExample) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
}

/** Well-formed writes: an entity of the seeded catalog, an aspect of its type, a valid example of it. */
export function validWrites(aspectsOf: (type: string) => string[]): Array<{ type: string; urn: string; aspect: string; value: unknown }> {
  const targets = [...SEED_DATASETS.map((urn) => ['dataset', urn]), ['structuredProperty', 'urn:li:structuredProperty:hostile.other'], ['tag', 'urn:li:tag:gold'], ['corpuser', 'urn:li:corpuser:alice']];
  return targets.flatMap(([type, urn]) =>
    aspectsOf(type)
      .filter((aspect) => !aspect.endsWith('Key'))
      .flatMap((aspect) => (EXAMPLES[aspect]?.valid ?? []).map((value) => ({ type, urn, aspect, value }))),
  );
}

/** A JSON value with one part replaced by something else (another type, random JSON, a prototype key). */
export function withOnePartReplaced(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.nat(), fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(...PROTOTYPE_KEYS, 'value', 'urn', 'aspects', 'patch')).map(([value, pick, replacement, key]) => {
    const copy = structuredClone(value);
    const spots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
    const visit = (node: unknown) => {
      if (Array.isArray(node)) node.forEach((child, i) => (spots.push([node, i]), visit(child)));
      else if (node && typeof node === 'object') for (const [k, child] of Object.entries(node)) spots.push([node as Record<string, unknown>, k]), visit(child);
    };
    visit(copy);
    if (spots.length === 0) return replacement;
    const [parent, at] = spots[pick % spots.length];
    if (pick % 5 === 0 && !Array.isArray(parent)) {
      // Rename a member instead: the key becomes one that reaches Object.prototype.
      const record = parent as Record<string, unknown>;
      Object.defineProperty(record, key, { value: record[at as string], enumerable: true, configurable: true, writable: true });
      delete record[at as string];
    } else {
      (parent as Record<string | number, unknown>)[at] = replacement;
    }
    return copy;
  });
}

const pointerSegment = fc.oneof(
  fc.constantFrom('tags', 'owners', 'properties', 'values', 'description', 'name', 'customProperties', '-', '0', '1', '99999999999', '-1', ...PROTOTYPE_KEYS),
  fc.constantFrom(...SEED_DATASETS, SEED_PROPERTY, 'urn:li:tag:gold'),
  anyText.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')),
  fc.constantFrom('~', '~2', '~01', 'a~1b'),
);
const jsonPointer = fc.oneof(
  { weight: 5, arbitrary: fc.array(pointerSegment, { minLength: 1, maxLength: 5 }).map((segments) => `/${segments.join('/')}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '/', '//', 'tags', '/__proto__/polluted', '/constructor/prototype/polluted') },
);
const patchOperation = fc.record(
  {
    op: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test') }, { weight: 1, arbitrary: anyText }),
    path: jsonPointer,
    from: jsonPointer,
    value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom({ tag: 'urn:li:tag:gold' }, { propertyUrn: SEED_PROPERTY, values: [{ double: 30 }] }, { owner: 'urn:li:corpuser:alice', type: 'DATAOWNER' })),
  },
  { requiredKeys: ['op'] },
);

// Copies of the document into itself: each copy of the root doubles it, so a few dozen ask for gigabytes.
const copyBomb = fc.tuple(fc.integer({ min: 1, max: 64 }), fc.constantFrom('', '/tags', '/description')).map(([n, from]) => ({
  patch: Array.from({ length: n }, (_, i) => ({ op: 'copy', from, path: `/k${i}` })),
}));

/** A JSON Patch request: a list of operations, sometimes with DataHub's arrayPrimaryKeys. */
export const patchDocument = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        patch: fc.array(patchOperation, { maxLength: 6 }),
        arrayPrimaryKeys: fc.dictionary(fc.constantFrom('properties', 'tags', 'owners', ...PROTOTYPE_KEYS), fc.array(fc.constantFrom('propertyUrn', 'tag', 'owner', 'type', 'x'), { maxLength: 3 }), { maxKeys: 2 }),
      },
      { requiredKeys: ['patch'] },
    ),
  },
  { weight: 1, arbitrary: fc.array(patchOperation, { maxLength: 4 }) },
  { weight: 1, arbitrary: copyBomb },
);

const OPERATORS = ['exists', 'equals', 'contains_any', 'contains_str', 'starts_with', 'regex_match', 'greater_than', 'less_than', 'is_true', 'is_false', 'schema_fields_have_descriptions'];
const PROPERTIES = ['urn', 'datasetProperties.name', 'datasetProperties.description', 'globalTags.tags.tag', 'ownership.owners.owner', 'schemaFields', 'schemaFields.length', `structuredProperties.${SEED_PROPERTY}`, 'globalTags.tags.tag.tagProperties.name', '__lastUpdated', 'x.y.z'];

/** Predicates of the test definition language, often valid, nested up to past its depth limit. */
const predicate = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('and'), tie('or'), tie('not'), tie('list')),
  leaf: fc.record(
    {
      property: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PROPERTIES) }, { weight: 1, arbitrary: anyText }),
      operator: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...OPERATORS) }, { weight: 1, arbitrary: anyText }),
      value: fc.oneof(fc.constantFrom('urn:li:tag:gold', '5', '(a+)+b', '(a)\\1', '[', ''), anyText, fc.integer()),
      values: fc.array(fc.oneof(anyText, fc.integer(), fc.jsonValue({ maxDepth: 2 })), { maxLength: 3 }),
      negate: fc.oneof(fc.boolean(), anyText),
    },
    { requiredKeys: ['property', 'operator'] },
  ),
  and: fc.record({ and: fc.array(tie('node'), { maxLength: 3 }) }),
  or: fc.record({ or: fc.array(tie('node'), { maxLength: 3 }) }),
  not: fc.record({ not: tie('node') }),
  list: fc.array(tie('node'), { maxLength: 3 }),
})).node;

/** A predicate wrapped in `levels` nots: around the definition language's limit of 50. */
const deepPredicate = fc.tuple(predicate, fc.constantFrom(49, 50, 51, 1200)).map(([inner, levels]) => {
  let node: unknown = inner;
  for (let i = 0; i < levels; i++) node = { not: node };
  return node;
});

const action = fc.record({
  type: fc.oneof(fc.constantFrom('ADD_TAGS', 'REMOVE_TAGS', 'SET_DOMAIN', 'ADD_OWNERS', 'SET_STRUCTURED_PROPERTY', 'DEPRECATE', 'add_tags'), anyText),
  params: fc.oneof(fc.record({ values: fc.array(fc.oneof(wellFormedUrn, anyText), { maxLength: 3 }) }), fc.jsonValue({ maxDepth: 2 })),
});

/** A test definition: on, rules, actions, each sometimes wrong. */
export const testDefinition = fc.record(
  {
    on: fc.record({ types: fc.oneof(fc.constant(['dataset']), fc.array(fc.oneof(fc.constantFrom('dataset', 'chart', 'dataPlatform', 'tag'), anyText), { maxLength: 3 })), conditions: predicate }, { requiredKeys: ['types'] }),
    rules: fc.oneof({ weight: 5, arbitrary: predicate }, { weight: 1, arbitrary: deepPredicate }),
    actions: fc.record({ passing: fc.array(action, { maxLength: 2 }), failing: fc.array(action, { maxLength: 2 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['on', 'rules'] },
);

/** A testInfo value carrying a definition as JSON text (sometimes not JSON at all). */
export const testInfoValue = fc.record({
  name: fc.oneof(fc.constant('hostile'), anyText),
  category: fc.constantFrom('Governance', 'Quality', ''),
  definition: fc.record({
    type: fc.constantFrom('JSON', 'json', 'YAML', 'SQL'),
    json: fc.oneof({ weight: 5, arbitrary: testDefinition.map((d) => JSON.stringify(d)) }, { weight: 1, arbitrary: mutated(testDefinition.map((d) => JSON.stringify(d))) }),
  }),
});

/** The body of POST /{type}: entities with aspects, some of them wrong. */
export const batchBody = fc.array(
  fc.record({ urn: hostileUrn, aspects: fc.dictionary(fc.constantFrom(...EXAMPLE_ASPECTS, ...PROTOTYPE_KEYS), fc.record({ value: aspectValue('datasetProperties'), systemMetadata: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['value'] }), { maxKeys: 3 }) }, { requiredKeys: ['urn'] }),
  { maxLength: 5 },
);

const filterCriterion = fc.record(
  {
    field: fc.oneof(fc.constantFrom('platform', 'tags', 'name', 'urn', 'removed', 'hostile.retention', `structuredProperties.${SEED_PROPERTY}`, ...PROTOTYPE_KEYS), anyText),
    condition: fc.oneof(fc.constantFrom('EQUAL', 'CONTAIN', 'START_WITH', 'GREATER_THAN', 'LESS_THAN', 'EXISTS', 'IN'), anyText),
    values: fc.array(fc.oneof(wellFormedUrn, anyText, fc.integer()), { maxLength: 3 }),
    negated: fc.oneof(fc.boolean(), anyText),
  },
  { requiredKeys: ['field'] },
);

/** The body of the scroll routes: entity types, aspects, a filter, a sort and facets. */
export const scrollBody = fc.record(
  {
    entities: fc.array(fc.oneof(fc.constantFrom('dataset', 'chart', 'tag', 'test'), anyText), { maxLength: 3 }),
    aspects: fc.array(fc.oneof(fc.constantFrom(...EXAMPLE_ASPECTS), anyText), { maxLength: 3 }),
    filter: fc.oneof(fc.record({ or: fc.array(fc.record({ and: fc.array(filterCriterion, { maxLength: 3 }) }), { maxLength: 2 }) }), fc.jsonValue({ maxDepth: 3 })),
    sortCriteria: fc.array(fc.record({ field: fc.oneof(fc.constantFrom('urn', 'name', 'qualifiedName', '_score'), anyText), order: fc.oneof(fc.constantFrom('ASCENDING', 'DESCENDING'), anyText) }), { maxLength: 2 }),
    facets: fc.array(fc.oneof(fc.constantFrom('platform', 'tags', 'hostile.retention'), anyText), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

/** GraphQL documents: the SDK's and CLI's searches, introspection, and broken, deep or wide ones. */
const GRAPHQL_SEARCH =
  'query find($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { start count total searchResults { entity { urn type ... on Dataset { name platform { name } properties { name customProperties { key value } } } } } facets { field aggregations { value count entity { urn type } } } } }';
const GRAPHQL_SCROLL = 'query scroll($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { nextScrollId count total searchResults { entity { urn } } } }';
export const graphqlDocument = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(GRAPHQL_SEARCH, GRAPHQL_SCROLL, '{ __type(name: "SearchFlags") { inputFields { name } } }', '{ __schema { types { name kind } } }') },
  { weight: 3, arbitrary: mutated(fc.constantFrom(GRAPHQL_SEARCH, GRAPHQL_SCROLL)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => `{ ${'__schema { types { fields { type { ofType { '.repeat(Math.ceil(n / 5))}name${' } } } } }'.repeat(Math.ceil(n / 5))} }`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`) },
  { weight: 1, arbitrary: fc.constantFrom('mutation { createTag(input: {id: "x"}) }', 'subscription { x }', '{"query": 1}', '[1]', 'null', '"text"') },
  { weight: 2, arbitrary: anyText },
);

const graphqlInput = fc.record(
  {
    query: fc.oneof(fc.constantFrom('*', 'orders', 'name:orders AND tags:gold', 'name:('), anyText),
    types: fc.array(fc.oneof(fc.constantFrom('DATASET', 'CHART', 'TAG', 'OTHER'), anyText), { maxLength: 3 }),
    start: fc.oneof(fc.integer({ min: -5, max: 20_000 }), anyText),
    count: fc.oneof(fc.integer({ min: -5, max: 20_000 }), anyText),
    scrollId: fc.oneof(anyText, fc.constant(null)),
    viewUrn: fc.oneof(hostileUrn, fc.constant(null)),
    orFilters: fc.array(fc.record({ and: fc.array(filterCriterion, { maxLength: 3 }) }), { maxLength: 2 }),
    filters: fc.array(filterCriterion, { maxLength: 2 }),
    searchFlags: fc.record({ skipAggregates: fc.oneof(fc.boolean(), anyText), maxAggValues: fc.oneof(fc.integer(), anyText), includeSoftDeleted: fc.oneof(fc.boolean(), anyText) }, { requiredKeys: [] }),
    sortInput: fc.record({ sortCriteria: fc.array(fc.record({ field: fc.oneof(fc.constantFrom('urn', 'name', '_score'), anyText), sortOrder: fc.oneof(fc.constantFrom('ASCENDING', 'DESCENDING'), anyText) }), { maxLength: 2 }) }),
  },
  { requiredKeys: ['query'] },
);

/** The body of POST /api/graphql: a document, its variables, an operation name. */
export const graphqlBody = fc.record(
  {
    query: fc.oneof({ weight: 8, arbitrary: graphqlDocument }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }),
    variables: fc.oneof({ weight: 6, arbitrary: fc.record({ input: graphqlInput }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }),
    operationName: fc.oneof(fc.constantFrom('find', 'scroll', 'nope'), anyText, fc.integer()),
  },
  { requiredKeys: [] },
);

/** The body of POST /gms/test: evaluate one or several entities, push or not, or a definition; or the vocabulary of types. */
export const evaluateBody = fc.record(
  {
    urn: fc.oneof(fc.constantFrom(...SEED_DATASETS), hostileUrn),
    urns: fc.array(fc.oneof(fc.constantFrom(...SEED_DATASETS), hostileUrn), { maxLength: 4 }),
    push: fc.oneof(fc.boolean(), anyText),
    shouldPush: fc.boolean(),
    testUrns: fc.array(fc.oneof(fc.constant(SEED_TEST), hostileUrn), { maxLength: 3 }),
    tests: fc.array(hostileUrn, { maxLength: 2 }),
    definition: fc.oneof(testDefinition, testDefinition.map((d) => JSON.stringify(d)), fc.jsonValue({ maxDepth: 3 })),
    // action=vocabulary
    types: fc.oneof(fc.array(fc.oneof(fc.constantFrom('dataset', 'chart', 'corpuser'), anyText), { maxLength: 3 }), anyText),
  },
  { requiredKeys: [] },
);

/** The body of POST /openapi/v2/auth/tokens. */
export const tokenBody = fc.record(
  {
    name: fc.oneof(fc.constant('hostile'), anyText, fc.integer()),
    role: fc.oneof(fc.constantFrom('viewer', 'editor', 'admin', 'ADMIN', 'root'), anyText),
    expiresInDays: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1e12, 1.5), anyText),
  },
  { requiredKeys: [] },
);

/** Nesting as text: `levels` arrays or objects deep, past anything JSON.stringify could write. */
function nestedText(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Puts `inner` where the `which`-th value of a JSON text was (or makes it the whole text). */
function spliceValue(text: string, which: number, inner: string): string {
  const values = [...text.matchAll(/:("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null|\[\]|\{\})/g)];
  if (values.length === 0) return inner;
  const match = values[which % values.length];
  return text.slice(0, match.index! + 1) + inner + text.slice(match.index! + match[0].length);
}

/**
 * The bytes of a body: its JSON as is (mostly), or corrupted on the way out: nested past the
 * limit, a huge array spliced in, a key renamed to a prototype key, invalid UTF-8, cut short.
 */
export function bodyBytes(value: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  const text = value.map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 12, arbitrary: text.map((t) => Buffer.from(t, 'utf8')) },
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.nat(), fc.constantFrom(999, 1000, 1001, 20_000, 100_000), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([t, which, levels, kind]) =>
        Buffer.from(spliceValue(t, which, nestedText(levels, kind)), 'utf8'),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(text, fc.nat(), fc.integer({ min: 1000, max: 100_000 }), fc.constantFrom('0', '"x"', '{}', '[]', 'null')).map(([t, which, n, item]) =>
        Buffer.from(spliceValue(t, which, `[${Array(n).fill(item).join(',')}]`), 'utf8'),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.nat(), fc.constantFrom('"__proto__"', '"constructor"', '"prototype"')).map(([t, which, key]) => {
        const keys = [...t.matchAll(/"(?:[^"\\]|\\.)*":/g)];
        if (keys.length === 0) return Buffer.from(`{${key}:{"polluted":true}}`, 'utf8');
        const match = keys[which % keys.length];
        return Buffer.from(t.slice(0, match.index!) + `${key}:` + t.slice(match.index! + match[0].length), 'utf8');
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([t, at, bytes]) => {
        const encoded = Buffer.from(t, 'utf8');
        const i = at % (encoded.length + 1);
        return Buffer.concat([encoded.subarray(0, i), Buffer.from(bytes), encoded.subarray(i)]);
      }),
    },
    { weight: 1, arbitrary: fc.tuple(text, fc.nat()).map(([t, at]) => Buffer.from(t.slice(0, at % (t.length + 1)), 'utf8')) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)) },
  );
}

// ---- the v3 entity API and Rest.li ----

const seededOrHostileUrn = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SEED_DATASETS) }, { weight: 1, arbitrary: hostileUrn });
const aspectKey = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...EXAMPLE_ASPECTS) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, 'urn', 'scrollId') }, { weight: 1, arbitrary: anyText });
const headersMember = fc.record({ 'If-Version-Match': fc.oneof(fc.constantFrom('0', '1', '-1', 'x', ''), anyText), 'If-None-Match': fc.constantFrom('*', 'x') }, { requiredKeys: [] });

/** `[{urn, <aspect>: wrapper…}]`: DataHub's v3 batch items, the wrapper made by `wrapper(aspect)`. */
function v3Items(wrapper: (aspect: string) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const item = fc.tuple(seededOrHostileUrn, fc.array(aspectKey.chain((aspect) => fc.tuple(fc.constant(aspect), wrapper(aspect))), { maxLength: 3 })).map(([urn, aspects]) => {
    const entity: Record<string, unknown> = { urn };
    for (const [name, value] of aspects) Object.defineProperty(entity, name, { value, enumerable: true, configurable: true, writable: true });
    return entity;
  });
  return fc.oneof({ weight: 6, arbitrary: fc.array(item, { maxLength: 4 }) }, { weight: 1, arbitrary: withOnePartReplaced(fc.array(item, { minLength: 1, maxLength: 2 })) });
}

/** `{<entity type>: items}`: the body of v3's /generic routes. */
function v3Generic(items: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.dictionary(fc.oneof(fc.constantFrom('dataset', 'chart', 'tag'), fc.constantFrom(...PROTOTYPE_KEYS), anyText), items, { maxKeys: 3 });
}

export const v3WriteBody = v3Items((aspect) => fc.record({ value: aspectValue(aspect), systemMetadata: fc.jsonValue({ maxDepth: 2 }), headers: headersMember }, { requiredKeys: ['value'] }));
export const v3PatchBody = v3Items(() => fc.record({ value: patchDocument, systemMetadata: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['value'] }));
export const v3BatchGetBody = v3Items(() => fc.oneof(fc.constant({}), fc.record({ headers: headersMember }), fc.jsonValue({ maxDepth: 2 })));
export const v3GenericWriteBody = v3Generic(v3WriteBody);
export const v3GenericPatchBody = v3Generic(v3PatchBody);
export const v3GenericBatchGetBody = v3Generic(v3BatchGetBody);

/** The body of v3's single-aspect write: `{value, systemMetadata?}`, or now and then the bare value. */
export function v3AspectBody(aspect: string): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: fc.record({ value: aspectValue(aspect), systemMetadata: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['value'] }) }, { weight: 1, arbitrary: aspectValue(aspect) });
}

const CHANGE_TYPES = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'PATCH', 'DELETE', 'RESTATE', 'UPDATE'];

/** A MetadataChangeProposal as DataHub's emitters send it: the aspect as a JSON string with its content type. */
const proposal = fc
  .record(
    {
      entityType: fc.oneof({ weight: 4, arbitrary: fc.constant('dataset') }, { weight: 1, arbitrary: fc.constantFrom('chart', 'tag', 'structuredProperty', ...PROTOTYPE_KEYS) }, { weight: 1, arbitrary: anyText }),
      entityUrn: seededOrHostileUrn,
      changeType: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...CHANGE_TYPES) }, { weight: 1, arbitrary: anyText }),
      aspectName: aspectKey,
      contentType: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('application/json', 'application/json-patch+json') }, { weight: 1, arbitrary: anyText }),
      systemMetadata: fc.jsonValue({ maxDepth: 2 }),
      headers: fc.oneof(headersMember, fc.jsonValue({ maxDepth: 1 })),
      asText: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    },
    { requiredKeys: ['entityType', 'entityUrn', 'changeType', 'aspectName', 'contentType', 'asText'] },
  )
  .chain(({ asText, contentType, ...mcp }) => {
    const value = mcp.changeType === 'PATCH' ? patchDocument.map((d) => (Array.isArray(d) ? d : (d as { patch: unknown }).patch)) : aspectValue(String(mcp.aspectName));
    // The value travels as JSON text (now and then not JSON, or not text at all).
    const encoded = asText ? fc.oneof({ weight: 6, arbitrary: value.map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: anyText }) : fc.jsonValue({ maxDepth: 2 });
    return encoded.map((text) => ({ ...mcp, aspect: { value: text, contentType } }));
  });

export const ingestProposalBody = fc.record({ proposal: fc.oneof({ weight: 6, arbitrary: proposal }, { weight: 1, arbitrary: withOnePartReplaced(proposal) }), async: fc.constantFrom('true', 'false', true, 'maybe') }, { requiredKeys: ['proposal'] });
export const ingestProposalBatchBody = fc.record({ proposals: fc.oneof(fc.array(proposal, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), async: fc.constantFrom('true', 'false', 1) }, { requiredKeys: ['proposals'] });

/** `/entities?action=ingest|delete`: a legacy snapshot, or a URN to hard-delete. */
export const entitiesActionBody = fc.oneof(
  fc.record({
    entity: fc.record({
      value: fc.dictionary(
        fc.oneof(fc.constantFrom('com.linkedin.metadata.snapshot.DatasetSnapshot', 'com.linkedin.metadata.snapshot.ChartSnapshot'), anyText),
        fc.record({ urn: seededOrHostileUrn, aspects: fc.array(fc.dictionary(fc.oneof(fc.constantFrom('com.linkedin.common.GlobalTags', 'com.linkedin.common.Status', 'com.linkedin.dataset.DatasetProperties'), anyText), aspectValue('globalTags'), { maxKeys: 2 }), { maxLength: 3 }) }),
        { maxKeys: 2 },
      ),
    }),
    systemMetadata: fc.jsonValue({ maxDepth: 2 }),
  }, { requiredKeys: ['entity'] }),
  fc.record({ urn: fc.oneof(fc.constant('urn:li:dataset:(urn:li:dataPlatform:s3,hostile.never,DEV)'), hostileUrn, fc.jsonValue({ maxDepth: 1 })) }),
);

/** `/entities?action=batchIngest`: snapshots as ingest takes them, a list of them, or anything. */
export const batchIngestBody = fc.oneof(
  fc.record({ entities: fc.array(entitiesActionBody.map((body) => (body as { entity?: unknown }).entity ?? body), { maxLength: 3 }), systemMetadata: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: ['entities'] }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** `/aspects?action=getTimeseriesAspectValues`: DataHub's query of points, each member valid now and then. */
const millis = fc.oneof(fc.integer(), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, 1e300, 1.5), anyText, fc.jsonValue({ maxDepth: 1 }));
export const timeseriesQueryBody = fc.record(
  {
    urn: seededOrHostileUrn,
    entity: fc.oneof(fc.constantFrom('dataset', 'chart', ...PROTOTYPE_KEYS), anyText),
    aspect: fc.oneof(fc.constantFrom('datasetProfile', 'operation', 'datahubIngestionCheckpoint', 'status', ...PROTOTYPE_KEYS), anyText),
    startTimeMillis: millis,
    endTimeMillis: millis,
    limit: millis,
    latestValue: fc.oneof(fc.boolean(), anyText),
    filter: fc.oneof(
      fc.record({ or: fc.array(fc.record({ and: fc.array(fc.record({ field: fc.oneof(fc.constantFrom('pipelineName', 'rowCount', '__proto__'), anyText), condition: fc.oneof(fc.constantFrom('EQUAL', 'IN', 'GREATER_THAN', 'EXISTS'), anyText), value: anyText, values: fc.array(anyText, { maxLength: 3 }) }, { requiredKeys: ['field'] }), { maxLength: 3 }) }), { maxLength: 3 }) }),
      fc.jsonValue({ maxDepth: 3 }),
    ),
  },
  { requiredKeys: ['urn'] },
);
