import fc from 'fast-check';
import { Registry } from '../../src/registry/registry.js';
import {
  aspectValue,
  batchBody,
  bodyBytes,
  batchIngestBody,
  entitiesActionBody,
  EXAMPLE_ASPECTS,
  evaluateBody,
  graphqlBody,
  graphqlDocument,
  ingestProposalBatchBody,
  ingestProposalBody,
  timeseriesQueryBody,
  patchDocument,
  scrollBody,
  testInfoValue,
  tokenBody,
  v3AspectBody,
  v3BatchGetBody,
  v3GenericBatchGetBody,
  v3GenericPatchBody,
  v3GenericWriteBody,
  v3PatchBody,
  v3WriteBody,
  validWrites,
} from './hostile-bodies.js';
import { anyText, hostileUrn, inUrl, mutated, PROTOTYPE_KEYS, rawInPath, SEED_DATASETS, SEED_PROPERTY, SEED_TEST } from './hostile-values.js';
import type { RawRequest } from './raw-http.js';

/** A generated request and the route it was made for (the report counts them by route). */
export interface HostileRequest extends RawRequest {
  route: string;
}

const registry = Registry.load();
const V2 = '/openapi/v2/entity';
const V3 = '/openapi/v3/entity';

/** Routes whose refusals come in Rest.li's error shape (the oracle checks which shape). */
export const RESTLI_ROUTE = /^Rest\.li /;

// ---- where a request points: entity type, URN and aspect, mostly coherent, sometimes not ----

interface Target {
  type: string;
  urn: string;
  aspect: string;
}

const aspectsOf = (type: string) => [...registry.entityType(type)!.aspects.keys()];

const coherentTarget: fc.Arbitrary<Target> = fc.oneof(
  fc.tuple(fc.constantFrom(...SEED_DATASETS, 'urn:li:dataset:(urn:li:dataPlatform:s3,hostile.new,DEV)'), fc.constantFrom(...aspectsOf('dataset'))).map(([urn, aspect]) => ({ type: 'dataset', urn, aspect })),
  fc.tuple(fc.constantFrom(SEED_PROPERTY, 'urn:li:structuredProperty:hostile.other'), fc.constantFrom(...aspectsOf('structuredProperty'))).map(([urn, aspect]) => ({ type: 'structuredProperty', urn, aspect })),
  fc.tuple(fc.constantFrom(SEED_TEST, 'urn:li:test:hostile.new'), fc.constantFrom(...aspectsOf('test'))).map(([urn, aspect]) => ({ type: 'test', urn, aspect })),
  fc.tuple(fc.constantFrom('urn:li:tag:gold', 'urn:li:chart:(looker,hostile)', 'urn:li:corpuser:alice'), fc.constantFrom(...EXAMPLE_ASPECTS)).map(([urn, aspect]) => ({ type: urn.split(':')[2], urn, aspect })),
);

const hostileName = (names: string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 2, arbitrary: mutated(fc.constantFrom(...names)) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) }, { weight: 1, arbitrary: anyText });

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 6, arbitrary: coherentTarget },
  {
    weight: 3,
    arbitrary: fc.record({ type: hostileName(registry.entityTypes().map((e) => e.name)), urn: hostileUrn, aspect: hostileName(EXAMPLE_ASPECTS) }),
  },
);

// ---- query strings ----

const flag = fc.constantFrom('true', 'false', '1', '0', 'maybe', '', 'TRUE', 'true,false');
const number = fc.oneof(fc.constantFrom('0', '1', '2', '10', '1000', '1001', '-1', '1.5', '1e3', 'abc', '', '99999999999999999999', 'NaN'), fc.integer().map(String));
const searchQuery = fc.oneof(
  fc.constantFrom('*', 'orders', 'name:orders AND tags:gold', 'platform:hive', 'hostile.retention:[1 TO 5]', '"quoted phrase"', '(a OR b) AND NOT c', 'urn:li:*', '_exists_:tags'),
  mutated(fc.constantFrom('name:orders AND (tags:gold OR owners:alice)', 'hostile.retention:[30 TO *]', 'description:"a b" -c')),
  fc.tuple(fc.constantFrom('', 'name:', 'description:', 'tags:', 'urn:', 'hostile.retention:', '_exists_:'), anyText, fc.boolean()).map(([field, text, quoted]) => `${field}${quoted ? JSON.stringify(text) : text}`),
  anyText,
);
const scrollId = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? '', 'utf8').toString('base64url')),
  fc.record({ s: fc.constantFrom('urn:ASCENDING', 'name:DESCENDING', '_score'), a: fc.oneof(fc.constantFrom(...SEED_DATASETS), anyText), v: fc.jsonValue({ maxDepth: 1 }), i: fc.oneof(fc.integer(), anyText) }).map((v) =>
    Buffer.from(JSON.stringify(v), 'utf8').toString('base64url'),
  ),
  anyText,
);
const aspectNames = fc.array(hostileName(EXAMPLE_ASPECTS), { maxLength: 3 }).map((names) => names.join(','));

const PARAMETERS: Record<string, fc.Arbitrary<string>> = {
  async: flag,
  systemMetadata: flag,
  createIfNotExists: flag,
  createEntityIfNotExists: flag,
  clear: flag,
  includeSoftDelete: flag,
  version: number,
  count: number,
  aspects: aspectNames,
  aspectNames,
  scrollId,
  query: searchQuery,
  sort: fc.oneof(fc.constantFrom('urn', 'name', 'qualifiedName', '_score'), anyText),
  sortCriteria: fc.oneof(fc.constantFrom('urn', 'name', 'qualifiedName', '_score', 'hostile.retention'), anyText),
  sortOrder: fc.oneof(fc.constantFrom('ASCENDING', 'DESCENDING', 'ascending'), anyText),
  action: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('evaluate', 'batchEvaluate', 'evaluateDefinition', 'vocabulary') }, { weight: 1, arbitrary: anyText }),
  after: number,
  limit: number,
  latest: number,
  // The change log's filters.
  entityType: fc.oneof(fc.constantFrom('dataset', 'DATASET', 'chart', 'nope', ''), anyText),
  actor: fc.oneof(fc.constantFrom('urn:li:corpuser:admin', 'admin', ''), anyText),
  excludeEntityTypes: fc.oneof(fc.constantFrom('dataPlatform,dataType,entityType', 'dataset', 'nope', ',', ''), anyText),
  ifNoneMatch: fc.constantFrom('*', 'x'),
  aspect: fc.oneof(fc.constantFrom(...EXAMPLE_ASPECTS), anyText),
  // Rest.li 2.0's list syntax, or a plain name.
  aspectList: fc.array(fc.oneof(fc.constantFrom(...EXAMPLE_ASPECTS), anyText), { maxLength: 3 }).chain((names) => fc.constantFrom(`List(${names.join(',')})`, names.join(','), `List(${names.join(',')}`)),
  pitKeepAlive: fc.constantFrom('5m', 'x', ''),
  // GET /api/graphql's (its document comes from graphqlDocument).
  variables: fc.oneof(fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''), anyText),
  operationName: fc.oneof(fc.constantFrom('find', 'scroll'), anyText),
  skipCache: flag,
  categories: fc.oneof(
    { weight: 4, arbitrary: fc.subarray(['TAG', 'owner', 'TECHNICAL_SCHEMA', 'glossary term', 'DOCUMENTATION', 'LINEAGE', 'STRUCTURED_PROPERTY'], { minLength: 1 }).map((c) => c.join(',')) },
    { weight: 1, arbitrary: anyText },
  ),
  startTime: fc.oneof(number, fc.constantFrom('-1', '0', '-9007199254740991', '9007199254740993')),
  endTime: fc.oneof(number, fc.constantFrom('0', '-1', '9007199254740991')),
  startTimeMillis: fc.oneof(number, fc.constantFrom('-1', '0', '9007199254740993')),
  endTimeMillis: fc.oneof(number, fc.constantFrom('0', '-1', '9007199254740991')),
  raw: flag,
  includeVersionSet: flag,
  direction: fc.oneof(fc.constantFrom('INCOMING', 'OUTGOING', 'outgoing', 'UNDIRECTED', 'UPSTREAM', 'downstream'), anyText),
  maxHops: fc.oneof(number, fc.constantFrom('1', '3', '1000', '1001', '0')),
  platforms: fc.oneof(fc.constantFrom('hive', 'urn:li:dataPlatform:snowflake,s3', ''), anyText),
  degree: fc.oneof(fc.constantFrom('1', '2', '3+', '1,3+', '4'), anyText),
  budgetMs: fc.oneof(number, fc.constantFrom('1', '60000', '60001', '0')),
  relationshipTypes: fc.oneof(fc.constantFrom('DownstreamOf', 'TaggedWith,OwnedBy', '', ','), anyText),
  'relationshipType[]': fc.oneof(fc.constantFrom('DownstreamOf', 'TaggedWith', '*'), anyText),
  types: fc.oneof(fc.constantFrom('List(DownstreamOf)', 'List(TaggedWith,OwnedBy)', 'List()', 'DownstreamOf'), anyText),
  start: fc.oneof(number, fc.constantFrom('0', '-1', '1e3')),
  sourceTypes: fc.oneof(fc.constantFrom('dataset', 'dataJob,chart', 'table', ''), anyText),
  destinationTypes: fc.oneof(fc.constantFrom('dataset', 'tag', ''), anyText),
  sourceUrns: fc.oneof(target.map((t) => t.urn), anyText),
  destinationUrns: fc.oneof(target.map((t) => t.urn), anyText),
  urn: target.map((t) => t.urn),
  // Long polls are real waits: keep them short, and let the oracle allow for them.
  wait: fc.constantFrom('0', '0.2', '1', '61', '-1', 'x', '1e1', '0.0001'),
};

/** `?k=v&…` with the route's parameters (mostly) and others, each value valid or not, encoded or not. */
function queryString(keys: string[], always: string[] = []): fc.Arbitrary<string> {
  const stranger = fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c]', ''), anyText), anyText);
  const known = keys.length > 0 ? fc.constantFrom(...keys).chain((key) => fc.tuple(fc.constant(key), PARAMETERS[key])) : stranger;
  const pairs = fc.oneof(fc.constant([]), fc.array(fc.oneof({ weight: 5, arbitrary: known }, { weight: 1, arbitrary: stranger }), { maxLength: 5 }));
  const first = always.length > 0 ? fc.tuple(...always.map((key) => fc.tuple(fc.constant(key), PARAMETERS[key]))) : fc.constant([] as Array<[string, string]>);
  return fc
    .tuple(first, pairs)
    .chain(([a, b]) => fc.tuple(...[...a, ...b].map(([key, value]) => fc.tuple(inUrl(fc.constant(key)), inUrl(fc.constant(value))))))
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
}

const SEARCH_KEYS = ['count', 'scrollId', 'query', 'sort', 'sortCriteria', 'sortOrder', 'includeSoftDelete', 'systemMetadata'];

// ---- headers ----

/** Header values Node will send: no control characters, nothing past U+00FF. */
const headerValue = anyText.map((s) => [...s].filter((c) => (c >= ' ' && c <= '\u00ff' && c !== '\u007f') || c === '\t').join(''));
const ADMIN_PLACEHOLDER = '<admin token>';

/** Now and then: a header is absent most of the time, so the other parts of a request decide its fate. */
const sometimes = (value: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });

function headers(contentTypes: string[]): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      'content-type': fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...contentTypes) },
        { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/jsonx', '') },
        { weight: 1, arbitrary: headerValue },
      ),
      authorization: fc.oneof(
        { weight: 12, arbitrary: fc.constant(`Bearer ${ADMIN_PLACEHOLDER}`) },
        { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Bearer ', 'Basic YWRtaW46YWRtaW4=', 'bearer urnb_x', `Bearer urnb_${'x'.repeat(5000)}`) },
        { weight: 1, arbitrary: headerValue.map((v) => `Bearer ${v}`) },
      ),
      'if-version-match': sometimes(fc.oneof(fc.constantFrom('1', '2', '-1', '0', 'abc', '', '1,2', '99999999999999999999'), headerValue)),
      'x-request-id': sometimes(headerValue),
      accept: sometimes(fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml'), headerValue)),
      'x-hostile': sometimes(headerValue),
    })
    .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];
const PATCH_TYPES = ['application/json-patch+json', 'application/json'];

// ---- routes ----

interface RouteSpec {
  route: string;
  methods: string[];
  /** The path without its query, and the body (or none). */
  pathAndBody: fc.Arbitrary<[string, Buffer | undefined]>;
  query: fc.Arbitrary<string>;
  contentTypes?: string[];
  /** Share of the runs (default 1): writes and patches reach the most code. */
  weight?: number;
}

/** A route that takes a body: it mostly gets one. */
const withBody = (path: fc.Arbitrary<string>, body: fc.Arbitrary<Buffer>) => fc.tuple(path, fc.option(body, { freq: 8, nil: undefined }));
/** A route that takes none: now and then it gets one anyway. */
const noBody = (path: fc.Arbitrary<string>) =>
  fc.tuple(path, fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodyBytes(fc.jsonValue({ maxDepth: 2 })) }));

const typeSegment = (t: Target) => inUrl(fc.constant(t.type));
const typePath = target.chain((t) => typeSegment(t)).map((type) => `${V2}/${type}`);
const entityPath = target.chain((t) => fc.tuple(typeSegment(t), inUrl(fc.constant(t.urn))).map(([type, urn]) => `${V2}/${type}/${urn}`));
const aspectTarget = target.chain((t) => fc.tuple(fc.constant(t), typeSegment(t), inUrl(fc.constant(t.urn)), inUrl(fc.constant(t.aspect))));
const aspectPath = aspectTarget.map(([, type, urn, aspect]) => `${V2}/${type}/${urn}/${aspect}`);

const v3TypePath = target.chain((t) => typeSegment(t)).map((type) => `${V3}/${type}`);
const v3EntityPath = target.chain((t) => fc.tuple(typeSegment(t), inUrl(fc.constant(t.urn))).map(([type, urn]) => `${V3}/${type}/${urn}`));
const v3AspectPath = aspectTarget.map(([, type, urn, aspect]) => `${V3}/${type}/${urn}/${aspect}`);
const v3AspectWrite = aspectTarget.chain(([t, type, urn, aspect]) => withBody(fc.constant(`${V3}/${type}/${urn}/${aspect}`), bodyBytes(v3AspectBody(t.aspect))));
/** DataHub's three timeline paths. */
const timelinePath = fc
  .tuple(fc.constantFrom('/openapi/v2/timeline/v1', '/openapi/timeline/v1', '/openapi/v1/timeline'), target.chain((t) => inUrl(fc.constant(t.urn))))
  .map(([prefix, urn]) => `${prefix}/${urn}`);
/** DataHub's relationship reads: one type's edges, one entity's (v2 and v3). */
const relationshipTypePath = fc
  .tuple(fc.constantFrom('v2', 'v3'), inUrl(fc.oneof(fc.constantFrom('DownstreamOf', 'TaggedWith', 'OwnedBy'), anyText)))
  .map(([version, type]) => `/openapi/${version}/relationship/${type}`);
const relationshipEntityPath = fc.tuple(fc.constantFrom('v2', 'v3'), entityPath).map(([version, path]) => path.replace(`${V2}/`, `/openapi/${version}/relationship/`));

/** The v2 scroll of a timeseries aspect's points: `/openapi/v2/timeseries/{type}/{aspect}`. */
const timeseriesPath = aspectTarget.map(([, type, , aspect]) => `/openapi/v2/timeseries/${type}/${aspect}`);
const restliUrnPath = (resource: string) => target.chain((t) => inUrl(fc.constant(t.urn))).map((urn) => `/${resource}/${urn}`);
const restliAction = (resource: string, actions: string[]) =>
  fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...actions) }, { weight: 1, arbitrary: anyText }).chain((action) => inUrl(fc.constant(action))).map((action) => `/${resource}?action=${action}`);

/** A write of one aspect: the value fits the aspect often, and testInfo gets real definitions. */
const aspectWrite = aspectTarget.chain(([t, type, urn, aspect]) =>
  withBody(fc.constant(`${V2}/${type}/${urn}/${aspect}`), bodyBytes(t.aspect === 'testInfo' ? fc.oneof(testInfoValue, aspectValue('testInfo')) : aspectValue(t.aspect))),
);

/** Writes that should succeed, so that what follows runs against a catalog that keeps changing. */
const wellFormedWrite = fc.oneof(
  fc.constantFrom(...validWrites(aspectsOf)).map(({ type, urn, aspect, value }): [string, Buffer] => [`${V2}/${type}/${encodeURIComponent(urn)}/${aspect}`, Buffer.from(JSON.stringify(value))]),
  testInfoValue.map((value): [string, Buffer] => [`${V2}/test/${encodeURIComponent('urn:li:test:hostile.new')}/testInfo`, Buffer.from(JSON.stringify(value))]),
);
/** The same valid writes through v3's batch and Rest.li's ingestProposal, to reach their write paths. */
const wellFormedV3Write = fc.constantFrom(...validWrites(aspectsOf)).map(({ type, urn, aspect, value }): [string, Buffer] => [
  `${V3}/${type}?async=false`,
  Buffer.from(JSON.stringify([{ urn, [aspect]: { value } }])),
]);
const wellFormedProposal = fc.constantFrom(...validWrites(aspectsOf)).map(({ type, urn, aspect, value }): [string, Buffer] => [
  '/aspects?action=ingestProposal',
  Buffer.from(JSON.stringify({ proposal: { entityType: type, entityUrn: urn, changeType: 'UPSERT', aspectName: aspect, aspect: { value: JSON.stringify(value), contentType: 'application/json' } } })),
]);
const wellFormedPatch = fc.tuple(fc.constantFrom(...SEED_DATASETS), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 })).map(([urn, tag]): [string, Buffer] => [
  `${V2}/dataset/${encodeURIComponent(urn)}/globalTags`,
  Buffer.from(JSON.stringify({ patch: [{ op: 'add', path: '/tags/-', value: { tag: `urn:li:tag:${tag}` } }] })),
]);

const ROUTES: RouteSpec[] = [
  { route: 'GET /{type}', methods: ['GET'], pathAndBody: noBody(typePath), query: queryString([...SEARCH_KEYS, 'aspects', 'aspectNames']) },
  { route: 'POST /{type}', methods: ['POST'], pathAndBody: withBody(typePath, bodyBytes(batchBody)), query: queryString(['async', 'systemMetadata']), weight: 3 },
  { route: 'GET /{type}/{urn}', methods: ['GET'], pathAndBody: noBody(entityPath), query: queryString(['aspects', 'aspectNames', 'systemMetadata']) },
  { route: 'HEAD /{type}/{urn}', methods: ['HEAD'], pathAndBody: noBody(entityPath), query: queryString([]) },
  { route: 'DELETE /{type}/{urn}', methods: ['DELETE'], pathAndBody: noBody(entityPath), query: queryString(['aspects', 'clear']) },
  { route: 'GET /{type}/{urn}/{aspect}', methods: ['GET'], pathAndBody: noBody(aspectPath), query: queryString(['version', 'systemMetadata']) },
  { route: 'HEAD /{type}/{urn}/{aspect}', methods: ['HEAD'], pathAndBody: noBody(aspectPath), query: queryString([]) },
  { route: 'DELETE /{type}/{urn}/{aspect}', methods: ['DELETE'], pathAndBody: noBody(aspectPath), query: queryString([]) },
  { route: 'POST /{type}/{urn}/{aspect}', methods: ['POST'], pathAndBody: aspectWrite, query: queryString(['async', 'systemMetadata', 'createIfNotExists', 'createEntityIfNotExists']), weight: 5 },
  { route: 'POST /{type}/{urn}/{aspect}', methods: ['POST'], pathAndBody: wellFormedWrite, query: fc.constant(''), weight: 2 },
  { route: 'PATCH /{type}/{urn}/{aspect}', methods: ['PATCH'], pathAndBody: wellFormedPatch, query: fc.constant(''), contentTypes: ['application/json-patch+json'], weight: 1 },
  { route: 'PATCH /{type}/{urn}/{aspect}', methods: ['PATCH'], pathAndBody: withBody(aspectPath, bodyBytes(patchDocument)), query: queryString(['systemMetadata']), contentTypes: PATCH_TYPES, weight: 4 },
  { route: 'POST /scroll (v2)', methods: ['POST'], pathAndBody: withBody(fc.constant(`${V2}/scroll`), bodyBytes(scrollBody)), query: queryString(SEARCH_KEYS) },
  { route: 'POST /scroll (v3)', methods: ['POST'], pathAndBody: withBody(fc.constant('/openapi/v3/entity/scroll'), bodyBytes(scrollBody)), query: queryString(SEARCH_KEYS) },
  { route: 'POST /gms/test', methods: ['POST'], pathAndBody: withBody(fc.constant('/gms/test'), bodyBytes(evaluateBody)), query: queryString([], ['action']), weight: 3 },
  { route: 'POST /api/graphql', methods: ['POST'], pathAndBody: withBody(fc.constant('/api/graphql'), bodyBytes(graphqlBody)), query: fc.constant(''), weight: 3 },
  {
    route: 'GET /api/graphql',
    methods: ['GET'],
    pathAndBody: noBody(
      fc
        .tuple(inUrl(graphqlDocument), fc.option(inUrl(PARAMETERS.variables), { nil: undefined }), fc.option(inUrl(PARAMETERS.operationName), { nil: undefined }))
        .map(([query, variables, name]) => `/api/graphql?query=${query}${variables === undefined ? '' : `&variables=${variables}`}${name === undefined ? '' : `&operationName=${name}`}`),
    ),
    query: fc.constant(''),
  },
  { route: 'POST /auth/tokens', methods: ['POST'], pathAndBody: withBody(fc.constant('/openapi/v2/auth/tokens'), bodyBytes(tokenBody)), query: queryString([]) },
  { route: 'GET /auth/tokens', methods: ['GET'], pathAndBody: noBody(fc.constant('/openapi/v2/auth/tokens')), query: queryString([]) },
  { route: 'DELETE /auth/tokens/{id}', methods: ['DELETE'], pathAndBody: noBody(inUrl(fc.oneof(anyText, fc.uuid())).map((id) => `/openapi/v2/auth/tokens/${id}`)), query: queryString([]) },
  { route: 'GET /entity-types/{type}', methods: ['GET'], pathAndBody: noBody(inUrl(anyText).map((type) => `/openapi/v2/entity-types/${type}`)), query: queryString([]) },
  { route: 'GET /forms/todo', methods: ['GET'], pathAndBody: noBody(fc.constant('/openapi/v2/forms/todo')), query: queryString(['count']) },
  {
    route: 'GET /forms/{urn}/completion',
    methods: ['GET'],
    pathAndBody: noBody(inUrl(fc.oneof(fc.constantFrom('urn:li:form:hostile', 'urn:li:form:', 'urn:li:dataset:x'), target.map((t) => t.urn), anyText)).map((urn) => `/openapi/v2/forms/${urn}/completion`)),
    query: queryString([]),
  },
  { route: 'GET /events', methods: ['GET'], pathAndBody: noBody(fc.constant('/openapi/v2/events')), query: queryString(['after', 'limit', 'wait', 'latest', 'entityType', 'excludeEntityTypes', 'aspect', 'actor']) },
  { route: 'GET /timeline/{urn}', methods: ['GET'], pathAndBody: noBody(timelinePath), query: queryString(['startTime', 'endTime', 'raw', 'includeVersionSet', 'categories'], ['categories']) },
  { route: 'GET /timeline/{urn}', methods: ['GET'], pathAndBody: noBody(timelinePath), query: queryString(['categories', 'startTime', 'endTime', 'raw']) },
  { route: 'v3 GET /{type}', methods: ['GET'], pathAndBody: noBody(v3TypePath), query: queryString([...SEARCH_KEYS, 'aspects', 'aspectNames', 'pitKeepAlive', 'skipCache']) },
  { route: 'v3 POST /{type}', methods: ['POST'], pathAndBody: withBody(v3TypePath, bodyBytes(v3WriteBody)), query: queryString(['async', 'systemMetadata', 'createIfNotExists', 'createEntityIfNotExists']), weight: 3 },
  { route: 'v3 POST /{type}', methods: ['POST'], pathAndBody: wellFormedV3Write, query: fc.constant(''), weight: 1 },
  { route: 'v3 PATCH /{type}', methods: ['PATCH'], pathAndBody: withBody(v3TypePath, bodyBytes(v3PatchBody)), query: queryString(['async', 'systemMetadata']), contentTypes: PATCH_TYPES, weight: 3 },
  { route: 'v3 POST /generic', methods: ['POST'], pathAndBody: withBody(fc.constant(`${V3}/generic`), bodyBytes(v3GenericWriteBody)), query: queryString(['async', 'systemMetadata']), weight: 2 },
  { route: 'v3 PATCH /generic', methods: ['PATCH'], pathAndBody: withBody(fc.constant(`${V3}/generic`), bodyBytes(v3GenericPatchBody)), query: queryString(['async', 'systemMetadata']), contentTypes: PATCH_TYPES, weight: 2 },
  { route: 'v3 POST /{type}/batchGet', methods: ['POST'], pathAndBody: withBody(v3TypePath.map((p) => `${p}/batchGet`), bodyBytes(v3BatchGetBody)), query: queryString(['systemMetadata']) },
  { route: 'v3 POST /generic/batchGet', methods: ['POST'], pathAndBody: withBody(fc.constant(`${V3}/generic/batchGet`), bodyBytes(v3GenericBatchGetBody)), query: queryString(['systemMetadata']) },
  { route: 'v3 POST /{type}/scroll', methods: ['POST'], pathAndBody: withBody(v3TypePath.map((p) => `${p}/scroll`), bodyBytes(scrollBody)), query: queryString(SEARCH_KEYS) },
  { route: 'v3 GET /{type}/{urn}', methods: ['GET'], pathAndBody: noBody(v3EntityPath), query: queryString(['aspects', 'aspectNames', 'systemMetadata']) },
  { route: 'v3 HEAD /{type}/{urn}', methods: ['HEAD'], pathAndBody: noBody(v3EntityPath), query: queryString(['includeSoftDelete']) },
  { route: 'v3 DELETE /{type}/{urn}', methods: ['DELETE'], pathAndBody: noBody(v3EntityPath), query: queryString(['aspects', 'clear']) },
  { route: 'v3 GET /{type}/{urn}/{aspect}', methods: ['GET'], pathAndBody: noBody(v3AspectPath), query: queryString(['version', 'systemMetadata']) },
  { route: 'v3 HEAD /{type}/{urn}/{aspect}', methods: ['HEAD'], pathAndBody: noBody(v3AspectPath), query: queryString(['includeSoftDelete']) },
  { route: 'v3 DELETE /{type}/{urn}/{aspect}', methods: ['DELETE'], pathAndBody: noBody(v3AspectPath), query: queryString([]) },
  { route: 'v3 POST /{type}/{urn}/{aspect}', methods: ['POST'], pathAndBody: v3AspectWrite, query: queryString(['async', 'systemMetadata', 'createIfNotExists', 'createEntityIfNotExists']), weight: 3 },
  { route: 'v3 PATCH /{type}/{urn}/{aspect}', methods: ['PATCH'], pathAndBody: withBody(v3AspectPath, bodyBytes(patchDocument)), query: queryString(['systemMetadata']), contentTypes: PATCH_TYPES, weight: 2 },
  {
    route: 'Rest.li POST /aspects',
    methods: ['POST'],
    pathAndBody: fc.oneof(
      withBody(restliAction('aspects', ['ingestProposal']), bodyBytes(ingestProposalBody)),
      withBody(restliAction('aspects', ['ingestProposalBatch']), bodyBytes(ingestProposalBatchBody)),
      withBody(restliAction('aspects', ['getTimeseriesAspectValues']), bodyBytes(timeseriesQueryBody)),
    ),
    query: fc.constant(''),
    weight: 4,
  },
  { route: 'Rest.li POST /aspects', methods: ['POST'], pathAndBody: wellFormedProposal, query: fc.constant(''), weight: 1 },
  { route: 'Rest.li GET /aspects/{urn}', methods: ['GET'], pathAndBody: noBody(restliUrnPath('aspects')), query: queryString(['aspect', 'version'], ['aspect']) },
  { route: 'Rest.li GET /entitiesV2/{urn}', methods: ['GET'], pathAndBody: noBody(restliUrnPath('entitiesV2')), query: fc.option(PARAMETERS.aspectList.chain((list) => inUrl(fc.constant(list))), { nil: undefined }).map((list) => (list === undefined ? '' : `?aspects=${list}`)) },
  { route: 'Rest.li POST /entities', methods: ['POST'], pathAndBody: withBody(restliAction('entities', ['ingest', 'delete']), bodyBytes(entitiesActionBody)), query: fc.constant('') },
  { route: 'Rest.li POST /entities', methods: ['POST'], pathAndBody: withBody(restliAction('entities', ['batchIngest']), bodyBytes(batchIngestBody)), query: fc.constant('') },
  { route: 'Rest.li GET /entities/{urn}', methods: ['GET'], pathAndBody: noBody(restliUrnPath('entities')), query: fc.option(PARAMETERS.aspectList.chain((list) => inUrl(fc.constant(list))), { nil: undefined }).map((list) => (list === undefined ? '' : `?aspects=${list}`)) },
  { route: 'GET /relationships/v1/', methods: ['GET'], pathAndBody: noBody(fc.constant('/openapi/relationships/v1/')), query: queryString(['urn', 'relationshipTypes', 'direction', 'start', 'count', 'includeSoftDelete'], ['urn', 'relationshipTypes', 'direction']) },
  { route: 'GET /relationship/{type}', methods: ['GET'], pathAndBody: noBody(relationshipTypePath), query: queryString(['count', 'scrollId', 'includeSoftDelete', 'pitKeepAlive']) },
  { route: 'GET /relationship/{entity}/{urn}', methods: ['GET'], pathAndBody: noBody(relationshipEntityPath), query: queryString(['relationshipType[]', 'direction', 'count', 'scrollId', 'includeSoftDelete']) },
  {
    route: 'v3 relationship and lineage scroll',
    methods: ['GET', 'POST'],
    pathAndBody: withBody(
      fc.constantFrom('/openapi/v3/relationship/scroll', '/openapi/v3/lineage/scroll'),
      bodyBytes(fc.oneof(fc.constant({}), fc.record({ urns: fc.array(fc.oneof(target.map((t) => t.urn), anyText), { maxLength: 3 }) }), fc.jsonValue({ maxDepth: 2 }))),
    ),
    query: queryString(['relationshipTypes', 'sourceTypes', 'destinationTypes', 'sourceUrns', 'destinationUrns', 'direction', 'count', 'scrollId', 'includeSoftDelete']),
  },
  {
    route: 'GET /lineage/{entity}/{urn}',
    methods: ['GET'],
    pathAndBody: noBody(entityPath.map((path) => path.replace(`${V2}/`, '/openapi/v3/lineage/'))),
    query: queryString(['direction', 'maxHops', 'types', 'platforms', 'degree', 'start', 'count', 'budgetMs', 'includeSoftDelete'], ['direction']),
  },
  { route: 'Rest.li GET /relationships', methods: ['GET'], pathAndBody: noBody(fc.constant('/relationships')), query: queryString(['urn', 'types', 'direction', 'start', 'count'], ['urn', 'types', 'direction']) },
  { route: 'v2 GET /timeseries/{type}/{aspect}', methods: ['GET'], pathAndBody: noBody(timeseriesPath), query: queryString(['count', 'scrollId', 'startTimeMillis', 'endTimeMillis']) },
  {
    route: 'GET server endpoints',
    methods: ['GET', 'HEAD'],
    pathAndBody: noBody(fc.constantFrom('/health', '/config', '/metrics', '/openapi/v2/auth/sign-in-hint', '/openapi/v3/api-docs', '/openapi/swagger-ui', '/openapi/swagger-ui/static/index.html')),
    query: queryString([]),
  },
  {
    route: 'any method, any path',
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'get', 'M-SEARCH'],
    pathAndBody: withBody(
      fc.oneof(
      fc.webPath(),
      fc.array(inUrl(anyText), { maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
      fc.constantFrom('/', '//', `${V2}/`, `${V2}//`, `${V2}/../../../etc/passwd`, '/openapi/v2/entity/%2e%2e/%2e%2e', '/gms/test/../test', `/${'a/'.repeat(3000)}`, `/health${'?'.repeat(100)}`),
      mutated(fc.constantFrom(`${V2}/dataset/${encodeURIComponent(SEED_DATASETS[0])}/globalTags`, '/openapi/v3/entity/scroll', '/gms/test')).map((p) => (p.startsWith('/') ? p : `/${p}`)),
      ),
      bodyBytes(fc.jsonValue({ maxDepth: 3 })),
    ),
    query: queryString(Object.keys(PARAMETERS)),
  },
];

/** One route's requests. */
function routeRequests(spec: RouteSpec): fc.Arbitrary<HostileRequest> {
  return fc
    .tuple(fc.constantFrom(...spec.methods), spec.pathAndBody, spec.query, headers(spec.contentTypes ?? JSON_TYPES), fc.boolean())
    .map(([method, [path, body], query, headers, chunked]) => ({ route: spec.route, method, path: rawInPath(`${path}${query}`), headers, body, chunked: body !== undefined && chunked }));
}

export const ROUTE_NAMES = [...new Set(ROUTES.map((r) => r.route))];

/** Any request to any route, with the admin token (mostly) filled in. */
export function hostileRequest(adminToken: string): fc.Arbitrary<HostileRequest> {
  return fc.oneof(...ROUTES.map((spec) => ({ weight: spec.weight ?? 1, arbitrary: routeRequests(spec) }))).map(withToken(adminToken));
}

/**
 * One request for every route, drawn from the seed: run first, so that every route is tried
 * whatever the weighted draw does (with some 50 routes, 600 draws missed one now and then).
 */
export function requestPerRoute(adminToken: string, seed: number): HostileRequest[] {
  return ROUTES.map((spec, i) => fc.sample(routeRequests(spec).map(withToken(adminToken)), { seed: seed + i, numRuns: 1 })[0]!);
}

/**
 * A valid write on each write route, run first: the suite then checks, whatever the seed's draw
 * (40 draws on a route all refused happened: the well-formed ones are 2 in 7), that each write
 * path still accepts what it should, and the requests after it run against a changed catalog.
 */
export function acceptedWrites(adminToken: string): HostileRequest[] {
  const urn = SEED_DATASETS[0];
  const status = { removed: false };
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const post = (route: string, path: string, body: unknown): HostileRequest => ({ route, method: 'POST', path, headers, body: Buffer.from(JSON.stringify(body)) });
  return [
    post('POST /{type}/{urn}/{aspect}', `${V2}/dataset/${encodeURIComponent(urn)}/status`, status),
    post('v3 POST /{type}', `${V3}/dataset?async=false`, [{ urn, status: { value: status } }]),
    post('Rest.li POST /aspects', '/aspects?action=ingestProposal', {
      proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'status', aspect: { value: JSON.stringify(status), contentType: 'application/json' } },
    }),
  ];
}

const withToken = (adminToken: string) => (request: HostileRequest): HostileRequest => ({
  ...request,
  headers: { ...request.headers, authorization: request.headers.authorization.replace(ADMIN_PLACEHOLDER, adminToken) },
});
