import { isDeepStrictEqual } from 'node:util';
import { can, type Permission, type Role } from '../../src/auth/roles.js';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { restliError } from '../restli/clients.js';
import type { SecurityAnswer, SecurityRequest } from './source-addresses.js';

/** The dataset the matrix reads and writes; a second one it deletes (never created). */
export const MATRIX_DATASET = datasetUrn('reliability.security.matrix');
const entity = `${V2}/dataset/${enc(MATRIX_DATASET)}`;
const V3 = '/openapi/v3/entity';
const entityV3 = `${V3}/dataset/${enc(MATRIX_DATASET)}`;
const NEVER = datasetUrn('reliability.security.never');
/** A proposal as DataHub's Python emitter sends it: the aspect as a JSON string. */
const proposal = (aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: MATRIX_DATASET,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
});
const DEFINITION = { on: { types: ['dataset'] }, rules: [{ property: 'datasetProperties.description', operator: 'exists' }] };

export interface MatrixRoute {
  name: string;
  /** `public`: served to anyone; `token`: any valid token (an unknown path); else the permission it needs. */
  needs: Permission | 'public' | 'token';
  /** Status of an allowed call. */
  ok: number;
  /** Body of an allowed call, when it is fixed. */
  okBody?: unknown;
  /** The operation a refused role is told it may not do (default: that of `needs`). */
  operation?: string;
  /** A Rest.li route: refusals come in Rest.li's error shape. */
  restli?: true;
  request(): Omit<SecurityRequest, 'authorization'> & { victim?: string };
}

/**
 * Every route `urnbase serve` registers (src/api/**; auth-matrix.test.ts checks it against the OpenAPI
 * document), with what it needs and its success status.
 * `victim()` gives a live token id for each revoke, so an allowed revoke answers 204.
 */
export function matrixRoutes(victim: () => string): MatrixRoute[] {
  const unknownPath = '/openapi/v2/nope';
  // Writes change a value each time, so each allowed one leaves a change-log event naming its actor.
  let writes = 0;
  const tags = () => ({ tags: [{ tag: `urn:li:tag:matrix${writes++ % 8}` }] });
  return [
    { name: 'GET /health', needs: 'public', ok: 200, okBody: { status: 'ok' }, request: () => ({ method: 'GET', path: '/health' }) },
    { name: 'GET /config', needs: 'public', ok: 200, request: () => ({ method: 'GET', path: '/config' }) },
    { name: 'GET /openapi/v2/auth/sign-in-hint', needs: 'public', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/auth/sign-in-hint' }) },
    { name: 'GET /openapi/v3/api-docs', needs: 'public', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v3/api-docs' }) },
    { name: 'GET /openapi/swagger-ui/', needs: 'public', ok: 200, request: () => ({ method: 'GET', path: '/openapi/swagger-ui/' }) },
    { name: 'GET / (the console)', needs: 'public', ok: 200, request: () => ({ method: 'GET', path: '/' }) },
    { name: 'GET /metrics', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/metrics' }) },
    { name: 'GET /{type}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `${V2}/dataset?count=5` }) },
    {
      name: 'POST /{type}',
      needs: 'write',
      ok: 202,
      okBody: [{ urn: MATRIX_DATASET }],
      request: () => ({ method: 'POST', path: `${V2}/dataset`, body: [{ urn: MATRIX_DATASET, aspects: { editableDatasetProperties: { value: { description: `batch ${writes++}` } } } }] }),
    },
    { name: 'POST /scroll (v2)', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: `${V2}/scroll?count=5`, body: { entities: ['dataset'] } }) },
    { name: 'POST /openapi/v3/entity/scroll', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: '/openapi/v3/entity/scroll?count=5', body: { entities: ['dataset'] } }) },
    { name: 'GET /{type}/{urn}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: entity }) },
    { name: 'HEAD /{type}/{urn}', needs: 'read', ok: 204, request: () => ({ method: 'HEAD', path: entity }) },
    { name: 'DELETE /{type}/{urn}', needs: 'write', ok: 200, request: () => ({ method: 'DELETE', path: `${V2}/dataset/${enc(datasetUrn('reliability.security.never'))}` }) },
    { name: 'GET /{type}/{urn}/{aspect}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `${entity}/status` }) },
    { name: 'HEAD /{type}/{urn}/{aspect}', needs: 'read', ok: 204, request: () => ({ method: 'HEAD', path: `${entity}/status` }) },
    { name: 'POST /{type}/{urn}/{aspect}', needs: 'write', ok: 200, request: () => ({ method: 'POST', path: `${entity}/globalTags`, body: tags() }) },
    {
      name: 'PATCH /{type}/{urn}/{aspect}',
      needs: 'write',
      ok: 200,
      request: () => ({ method: 'PATCH', path: `${entity}/editableDatasetProperties`, body: { patch: [{ op: 'add', path: '/description', value: `patch ${writes++}` }] } }),
    },
    { name: 'DELETE /{type}/{urn}/{aspect}', needs: 'write', ok: 200, request: () => ({ method: 'DELETE', path: `${entity}/globalTags` }) },
    { name: 'GET v3 /{type}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `${V3}/dataset?count=5` }) },
    { name: 'POST v3 /{type}', needs: 'write', ok: 200, request: () => ({ method: 'POST', path: `${V3}/dataset?async=false`, body: [{ urn: MATRIX_DATASET, globalTags: { value: tags() } }] }) },
    {
      name: 'PATCH v3 /{type}',
      needs: 'write',
      ok: 202,
      request: () => ({ method: 'PATCH', path: `${V3}/dataset`, body: [{ urn: MATRIX_DATASET, editableDatasetProperties: { value: { patch: [{ op: 'add', path: '/description', value: `v3 ${writes++}` }] } } }] }),
    },
    { name: 'POST v3 /generic', needs: 'write', ok: 202, request: () => ({ method: 'POST', path: `${V3}/generic`, body: { dataset: [{ urn: MATRIX_DATASET, globalTags: { value: tags() } }] } }) },
    {
      name: 'PATCH v3 /generic',
      needs: 'write',
      ok: 202,
      okBody: { dataset: [] },
      request: () => ({ method: 'PATCH', path: `${V3}/generic`, body: { dataset: [{ urn: MATRIX_DATASET, globalTags: { value: [{ op: 'add', path: '/tags/-', value: { tag: `urn:li:tag:v3p${writes++}` } }] } }] } }),
    },
    { name: 'POST v3 /{type}/batchGet', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: `${V3}/dataset/batchGet`, body: [{ urn: MATRIX_DATASET, status: {} }] }) },
    { name: 'POST v3 /generic/batchGet', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: `${V3}/generic/batchGet`, body: { dataset: [{ urn: MATRIX_DATASET, status: {} }] } }) },
    { name: 'POST v3 /{type}/scroll', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: `${V3}/dataset/scroll?count=5`, body: {} }) },
    { name: 'GET v3 /{type}/{urn}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: entityV3 }) },
    { name: 'HEAD v3 /{type}/{urn}', needs: 'read', ok: 204, request: () => ({ method: 'HEAD', path: entityV3 }) },
    { name: 'DELETE v3 /{type}/{urn}', needs: 'write', ok: 200, request: () => ({ method: 'DELETE', path: `${V3}/dataset/${enc(NEVER)}` }) },
    { name: 'GET v3 /{type}/{urn}/{aspect}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `${entityV3}/status` }) },
    { name: 'HEAD v3 /{type}/{urn}/{aspect}', needs: 'read', ok: 204, request: () => ({ method: 'HEAD', path: `${entityV3}/status` }) },
    { name: 'POST v3 /{type}/{urn}/{aspect}', needs: 'write', ok: 200, request: () => ({ method: 'POST', path: `${entityV3}/globalTags?createIfNotExists=false`, body: { value: tags() } }) },
    {
      name: 'PATCH v3 /{type}/{urn}/{aspect}',
      needs: 'write',
      ok: 200,
      request: () => ({ method: 'PATCH', path: `${entityV3}/editableDatasetProperties`, body: { patch: [{ op: 'add', path: '/description', value: `v3 aspect ${writes++}` }] } }),
    },
    { name: 'DELETE v3 /{type}/{urn}/{aspect}', needs: 'write', ok: 200, request: () => ({ method: 'DELETE', path: `${entityV3}/globalTags` }) },
    {
      name: 'POST /aspects?action=ingestProposal',
      needs: 'write',
      restli: true,
      ok: 200,
      okBody: { value: 'success' },
      request: () => ({ method: 'POST', path: '/aspects?action=ingestProposal', body: { proposal: proposal('globalTags', tags()), async: 'false' } }),
    },
    {
      name: 'POST /aspects?action=ingestProposalBatch',
      needs: 'write',
      restli: true,
      ok: 200,
      okBody: { value: 'success' },
      request: () => ({ method: 'POST', path: '/aspects?action=ingestProposalBatch', body: { proposals: [proposal('globalTags', tags())], async: 'true' } }),
    },
    {
      // A read action on the write route: a viewer may call it.
      name: 'POST /aspects?action=getTimeseriesAspectValues',
      needs: 'read',
      restli: true,
      ok: 200,
      request: () => ({ method: 'POST', path: '/aspects?action=getTimeseriesAspectValues', body: { urn: MATRIX_DATASET, entity: 'dataset', aspect: 'datasetProfile', latestValue: true } }),
    },
    { name: 'GET /aspects/{urn}', needs: 'read', restli: true, ok: 200, request: () => ({ method: 'GET', path: `/aspects/${enc(MATRIX_DATASET)}?aspect=status&version=0` }) },
    { name: 'GET /entities/{urn}', needs: 'read', restli: true, ok: 200, request: () => ({ method: 'GET', path: `/entities/${enc(MATRIX_DATASET)}` }) },
    { name: 'GET /entitiesV2/{urn}', needs: 'read', restli: true, ok: 200, request: () => ({ method: 'GET', path: `/entitiesV2/${enc(MATRIX_DATASET)}?aspects=List(status)` }) },
    {
      name: 'POST /entities?action=ingest',
      needs: 'write',
      restli: true,
      ok: 200,
      okBody: { value: 'success' },
      request: () => ({
        method: 'POST',
        path: '/entities?action=ingest',
        body: { entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: MATRIX_DATASET, aspects: [{ 'com.linkedin.common.GlobalTags': tags() }] } } } },
      }),
    },
    {
      name: 'POST /entities?action=batchIngest',
      needs: 'write',
      restli: true,
      ok: 200,
      request: () => ({
        method: 'POST',
        path: '/entities?action=batchIngest',
        body: { entities: [{ value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: MATRIX_DATASET, aspects: [{ 'com.linkedin.common.GlobalTags': tags() }] } } }] },
      }),
    },
    { name: 'POST /entities?action=delete', needs: 'write', restli: true, ok: 200, request: () => ({ method: 'POST', path: '/entities?action=delete', body: { urn: NEVER } }) },
    { name: 'POST /gms/test evaluate', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: '/gms/test?action=evaluate', body: { urn: MATRIX_DATASET } }) },
    { name: 'POST /gms/test batchEvaluate', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: '/gms/test?action=batchEvaluate', body: { urns: [MATRIX_DATASET] } }) },
    { name: 'POST /gms/test vocabulary', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: '/gms/test?action=vocabulary', body: { types: ['dataset'] } }) },
    {
      name: 'POST /gms/test evaluateDefinition',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'POST', path: '/gms/test?action=evaluateDefinition', body: { urn: MATRIX_DATASET, definition: DEFINITION } }),
    },
    {
      name: 'POST /gms/test evaluate push',
      needs: 'write',
      operation: 'push test results',
      ok: 200,
      request: () => ({ method: 'POST', path: '/gms/test?action=evaluate', body: { urn: MATRIX_DATASET, push: true } }),
    },
    {
      name: 'POST /gms/test batchEvaluate push',
      needs: 'write',
      operation: 'push test results',
      ok: 200,
      request: () => ({ method: 'POST', path: '/gms/test?action=batchEvaluate', body: { urns: [MATRIX_DATASET], push: true } }),
    },
    { name: 'GET /openapi/v2/events', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/events?limit=1' }) },
    { name: 'GET /openapi/v2/forms/todo', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/forms/todo?count=5' }) },
    {
      // No form is made: an allowed call reaches the service, which answers that it does not exist.
      name: 'GET /openapi/v2/forms/{urn}/completion',
      needs: 'read',
      ok: 404,
      okBody: { error: 'Not Found', message: 'Form urn:li:form:reliability.matrix does not exist' },
      request: () => ({ method: 'GET', path: `/openapi/v2/forms/${enc('urn:li:form:reliability.matrix')}/completion` }),
    },
    { name: 'GET /openapi/v2/entity-types/{type}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/entity-types/dataset' }) },
    { name: 'GET /openapi/v2/timeseries/{type}/{aspect}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/timeseries/dataset/datasetProfile?count=2' }) },
    {
      name: 'GET /openapi/v2/timeline/v1/{urn}',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/v2/timeline/v1/${encodeURIComponent(MATRIX_DATASET)}?categories=TAG,TECHNICAL_SCHEMA&startTime=0` }),
    },
    {
      name: 'GET /openapi/timeline/v1/{urn}',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/timeline/v1/${encodeURIComponent(MATRIX_DATASET)}?categories=OWNER` }),
    },
    {
      name: 'GET /openapi/v1/timeline/{urn}',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/v1/timeline/${encodeURIComponent(MATRIX_DATASET)}?categories=DOCUMENTATION` }),
    },
    {
      name: 'GET /openapi/relationships/v1/',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/relationships/v1/?urn=${encodeURIComponent(MATRIX_DATASET)}&relationshipTypes=DownstreamOf&direction=INCOMING` }),
    },
    {
      name: 'GET /openapi/relationships/v1',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/relationships/v1?urn=${encodeURIComponent(MATRIX_DATASET)}&relationshipTypes=OwnedBy&direction=OUTGOING` }),
    },
    { name: 'GET /openapi/v3/relationship/scroll', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `/openapi/v3/relationship/scroll?destinationUrns=${encodeURIComponent(MATRIX_DATASET)}` }) },
    { name: 'POST /openapi/v3/relationship/scroll', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: '/openapi/v3/relationship/scroll?relationshipTypes=TaggedWith', body: {} }) },
    { name: 'GET /openapi/v3/lineage/scroll', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `/openapi/v3/lineage/scroll?sourceUrns=${encodeURIComponent(MATRIX_DATASET)}` }) },
    { name: 'GET /openapi/v3/lineage/{entity}/{urn}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: `/openapi/v3/lineage/dataset/${encodeURIComponent(MATRIX_DATASET)}?direction=UPSTREAM` }) },
    { name: 'POST /openapi/v3/lineage/scroll', needs: 'read', ok: 200, request: () => ({ method: 'POST', path: '/openapi/v3/lineage/scroll?count=5', body: {} }) },
    { name: 'GET /openapi/v2/relationship/{type}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/relationship/DownstreamOf?count=2' }) },
    { name: 'GET /openapi/v3/relationship/{type}', needs: 'read', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v3/relationship/TaggedWith?count=2' }) },
    {
      name: 'GET /openapi/v2/relationship/{entity}/{urn}',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/v2/relationship/dataset/${encodeURIComponent(MATRIX_DATASET)}?direction=OUTGOING` }),
    },
    {
      name: 'GET /openapi/v3/relationship/{entity}/{urn}',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/openapi/v3/relationship/dataset/${encodeURIComponent(MATRIX_DATASET)}?direction=INCOMING` }),
    },
    {
      name: 'GET /relationships (Rest.li)',
      needs: 'read',
      restli: true,
      ok: 200,
      request: () => ({ method: 'GET', path: `/relationships?urn=${encodeURIComponent(MATRIX_DATASET)}&types=List(DownstreamOf)&direction=INCOMING` }),
    },
    { name: 'POST /openapi/v2/auth/tokens', needs: 'admin', ok: 201, request: () => ({ method: 'POST', path: '/openapi/v2/auth/tokens', body: { name: 'made', role: 'viewer' } }) },
    { name: 'GET /openapi/v2/auth/me', needs: 'token', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/auth/me' }) },
    { name: 'GET /openapi/v2/auth/tokens', needs: 'admin', ok: 200, request: () => ({ method: 'GET', path: '/openapi/v2/auth/tokens' }) },
    {
      name: 'DELETE /openapi/v2/auth/tokens/{id}',
      needs: 'admin',
      ok: 204,
      request: () => {
        const id = victim();
        return { method: 'DELETE', path: `/openapi/v2/auth/tokens/${id}`, victim: id };
      },
    },
    {
      name: 'POST /api/graphql',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'POST', path: '/api/graphql', body: { query: '{ searchAcrossEntities(input: {query: "*", types: [DATASET], count: 0}) { count } }' } }),
      okBody: { data: { searchAcrossEntities: { count: 0 } } },
    },
    {
      name: 'GET /api/graphql',
      needs: 'read',
      ok: 200,
      request: () => ({ method: 'GET', path: `/api/graphql?query=${encodeURIComponent('{ __typename }')}` }),
      okBody: { data: { __typename: 'Query' } },
    },
    // An unknown path needs a token too: without one it does not reveal what exists.
    { name: 'GET an unknown path', needs: 'token', ok: 404, okBody: { error: `No endpoint GET ${unknownPath}.` }, request: () => ({ method: 'GET', path: unknownPath }) },
  ];
}

/** A way of calling: no or a bad credential (with the 401 message it earns), or a token of a role. */
export interface Credential {
  name: string;
  authorization?: string;
  /** The token's role and actor; absent for a credential that fails authentication. */
  principal?: { role: Role; actor: string };
  /** The 401 message of a failing credential. */
  refusal?: string;
}

const INVALID = 'Invalid, expired or revoked token';

/** The five ways to fail authentication, given the secrets of a revoked and an expired token. */
export function failingCredentials(revoked: string, expired: string): Credential[] {
  return [
    { name: 'no token', refusal: 'Authentication required: send Authorization: Bearer <token>' },
    { name: 'a malformed header', authorization: 'Token urnb_malformed-0000000000000000000000000000000', refusal: 'Malformed Authorization header: expected "Bearer <token>"' },
    { name: 'an unknown token', authorization: 'Bearer urnb_unknown-00000000000000000000000000000000000', refusal: INVALID },
    { name: 'a revoked token', authorization: `Bearer ${revoked}`, refusal: INVALID },
    { name: 'an expired token', authorization: `Bearer ${expired}`, refusal: INVALID },
  ];
}

export interface Expected {
  status: number;
  /** Checked exactly when present (never for HEAD, which has no body). */
  body?: unknown;
  headers?: Record<string, string>;
  /** The request fails authentication (and so counts towards the limiter). */
  fails: boolean;
}

const OPERATION: Record<Permission, string> = { read: 'read entities', write: 'write entities', admin: 'manage access tokens' };

/** What the matrix says `credential` gets from `route`. */
export function expectedAnswer(route: MatrixRoute, credential: Credential): Expected {
  if (route.needs === 'public') return { status: route.ok, body: route.okBody, fails: false };
  const refusal = (status: number, error: string, message: string) => (route.restli ? restliError(status, message) : { error, message });
  const principal = credential.principal;
  if (!principal) {
    return { status: 401, body: refusal(401, 'Unauthorized', credential.refusal!), headers: { 'www-authenticate': 'Bearer' }, fails: true };
  }
  if (route.needs === 'token' || can(principal.role, route.needs)) return { status: route.ok, body: route.okBody, fails: false };
  const operation = route.operation ?? OPERATION[route.needs];
  return { status: 403, body: refusal(403, 'Forbidden', `${principal.actor} is unauthorized to ${operation}.`), fails: false };
}

/** How an answer differs from the expected one; undefined when it is exactly that. */
export function mismatch(method: string, expected: Expected, answer: SecurityAnswer): string | undefined {
  if (answer.status !== expected.status) return `status ${answer.status} instead of ${expected.status}: ${answer.text.slice(0, 200)}`;
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    if (answer.headers[name] !== value) return `header ${name}: ${JSON.stringify(answer.headers[name])} instead of ${JSON.stringify(value)}`;
  }
  if (method === 'HEAD') return answer.text === '' ? undefined : `a HEAD answer with a body: ${answer.text.slice(0, 200)}`;
  if (expected.body !== undefined && !isDeepStrictEqual(answer.body, expected.body)) {
    return `body ${answer.text.slice(0, 200)} instead of ${JSON.stringify(expected.body)}`;
  }
  return undefined;
}
