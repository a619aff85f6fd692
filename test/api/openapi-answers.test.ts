import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import type { InjectOptions } from 'fastify';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';

/**
 * The served API document says what each operation really answers: every declared success status
 * is what a real request gets, with a body of the declared shape; every declared refusal is
 * provoked here (or listed below with the reason it cannot be); and the auth answers (401, 403,
 * 429, and no security on public routes) follow the routes' config.
 */

const ADMIN = 'urnb_openapi-admin-secret-0123456789abcdefghijkl';
const ds = datasetUrn('openapi.answers');
const entity = `${V2}/dataset/${enc(ds)}`;
const doomed = `${V2}/dataset/${enc(datasetUrn('openapi.doomed'))}`;
const property = 'urn:li:structuredProperty:openapi.live';
const propertyUrl = `${V2}/structuredProperty/${enc(property)}`;
const missing = `${V2}/dataset/${enc(datasetUrn('openapi.missing'))}`;
const form = 'urn:li:form:openapi.review';
const TOKENS = '/openapi/v2/auth/tokens';
const V3 = '/openapi/v3/entity';
const entityV3 = `${V3}/dataset/${enc(ds)}`;
const doomedV3 = `${V3}/dataset/${enc(datasetUrn('openapi.doomed.v3'))}`;
const propertyUrlV3 = `${V3}/structuredProperty/${enc(property)}`;
const missingV3 = `${V3}/dataset/${enc(datasetUrn('openapi.missing'))}`;
const definition = { on: { types: ['dataset'] }, rules: [{ property: 'status.removed', operator: 'equals', value: 'false' }] };
/** A Rest.li MetadataChangeProposal of `ds`, its aspect as a JSON string. */
const mcp = (aspectName: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  entityType: 'dataset',
  entityUrn: ds,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  ...extra,
});
const restliDs = encodeURIComponent(ds);

/** A token made in `before`, revoked by the revokeAccessToken exercise. */
let spareTokenId = '';

interface Exercise {
  id: string;
  status: number;
  request: () => InjectOptions;
}

/** Valid requests: at least one per operation, one per declared success status. */
const successes: Exercise[] = [
  { id: 'getHealth', status: 200, request: () => ({ method: 'GET', url: '/health' }) },
  { id: 'getConfig', status: 200, request: () => ({ method: 'GET', url: '/config' }) },
  { id: 'getSignInHint', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/auth/sign-in-hint' }) },
  { id: 'getMetrics', status: 200, request: () => ({ method: 'GET', url: '/metrics' }) },
  { id: 'createEntity', status: 202, request: () => ({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn: ds, aspects: { status: { value: { removed: false } } } }] }) },
  {
    id: 'createEntity',
    status: 200,
    request: () => ({ method: 'POST', url: `${V2}/dataset?async=false&systemMetadata=true`, payload: [{ urn: ds, aspects: { status: { value: { removed: false } } } }] }),
  },
  { id: 'getEntities', status: 200, request: () => ({ method: 'GET', url: `${V2}/dataset?count=1&systemMetadata=true` }) },
  { id: 'getEntity', status: 200, request: () => ({ method: 'GET', url: `${entity}?systemMetadata=true` }) },
  { id: 'headEntity', status: 204, request: () => ({ method: 'HEAD', url: entity }) },
  { id: 'getAspect', status: 200, request: () => ({ method: 'GET', url: `${entity}/status?systemMetadata=true` }) },
  { id: 'headAspect', status: 204, request: () => ({ method: 'HEAD', url: `${entity}/status` }) },
  { id: 'createAspect', status: 200, request: () => ({ method: 'POST', url: `${entity}/status?systemMetadata=true`, payload: { removed: false } }) },
  { id: 'createAspect', status: 202, request: () => ({ method: 'POST', url: `${entity}/status?async=true`, payload: { removed: false } }) },
  { id: 'patchAspect', status: 200, request: () => ({ method: 'PATCH', url: `${entity}/status`, payload: { patch: [{ op: 'add', path: '/removed', value: false }] } }) },
  { id: 'deleteAspect', status: 200, request: () => ({ method: 'DELETE', url: `${entity}/globalTags` }) },
  { id: 'deleteEntity', status: 200, request: () => ({ method: 'DELETE', url: doomed }) },
  { id: 'scrollEntities', status: 200, request: () => ({ method: 'POST', url: `${V2}/scroll?systemMetadata=true`, payload: { entities: ['dataset'], aspects: [], facets: ['platform'] } }) },
  { id: 'scrollEntities', status: 200, request: () => ({ method: 'POST', url: `${V2}/scroll?count=1`, payload: {} }) },
  { id: 'scrollEntitiesV3', status: 200, request: () => ({ method: 'POST', url: '/openapi/v3/entity/scroll?systemMetadata=true', payload: { entities: ['dataset'], aspects: ['status'] } }) },
  { id: 'scrollEntitiesV3', status: 200, request: () => ({ method: 'POST', url: '/openapi/v3/entity/scroll', payload: {} }) },
  { id: 'createEntityV3', status: 202, request: () => ({ method: 'POST', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: { removed: false } } }] }) },
  { id: 'createEntityV3', status: 200, request: () => ({ method: 'POST', url: `${V3}/dataset?async=false&systemMetadata=true`, payload: [{ urn: ds, status: { value: { removed: false } } }] }) },
  { id: 'patchEntityV3', status: 202, request: () => ({ method: 'PATCH', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: { patch: [{ op: 'add', path: '/removed', value: false }] } } }] }) },
  { id: 'patchEntityV3', status: 200, request: () => ({ method: 'PATCH', url: `${V3}/dataset?async=false&systemMetadata=true`, payload: [{ urn: ds, status: { value: { patch: [] } } }] }) },
  { id: 'createGenericEntitiesV3', status: 202, request: () => ({ method: 'POST', url: `${V3}/generic`, payload: { dataset: [{ urn: ds, status: { value: { removed: false } } }] } }) },
  { id: 'createGenericEntitiesV3', status: 200, request: () => ({ method: 'POST', url: `${V3}/generic?async=false&systemMetadata=true`, payload: { dataset: [{ urn: ds, status: { value: { removed: false } } }] } }) },
  { id: 'patchGenericEntitiesV3', status: 202, request: () => ({ method: 'PATCH', url: `${V3}/generic`, payload: { dataset: [{ urn: ds, status: { value: { patch: [] } } }] } }) },
  { id: 'patchGenericEntitiesV3', status: 200, request: () => ({ method: 'PATCH', url: `${V3}/generic?async=false`, payload: { dataset: [{ urn: ds, status: { value: { patch: [] } } }] } }) },
  { id: 'getEntityBatchV3', status: 200, request: () => ({ method: 'POST', url: `${V3}/dataset/batchGet?systemMetadata=true`, payload: [{ urn: ds }, { urn: ds, status: { headers: { 'If-Version-Match': '1' } } }] }) },
  { id: 'batchGetGenericEntitiesV3', status: 200, request: () => ({ method: 'POST', url: `${V3}/generic/batchGet`, payload: { dataset: [{ urn: ds, status: {} }] } }) },
  { id: 'getEntitiesV3', status: 200, request: () => ({ method: 'GET', url: `${V3}/dataset?count=1&systemMetadata=true` }) },
  { id: 'scrollEntitiesOfTypeV3', status: 200, request: () => ({ method: 'POST', url: `${V3}/dataset/scroll?systemMetadata=true`, payload: { aspects: [] } }) },
  { id: 'getEntityV3', status: 200, request: () => ({ method: 'GET', url: `${entityV3}?systemMetadata=true` }) },
  { id: 'headEntityV3', status: 204, request: () => ({ method: 'HEAD', url: entityV3 }) },
  { id: 'deleteEntityV3', status: 200, request: () => ({ method: 'DELETE', url: doomedV3 }) },
  { id: 'getAspectV3', status: 200, request: () => ({ method: 'GET', url: `${entityV3}/status?systemMetadata=true` }) },
  { id: 'headAspectV3', status: 204, request: () => ({ method: 'HEAD', url: `${entityV3}/status` }) },
  { id: 'deleteAspectV3', status: 200, request: () => ({ method: 'DELETE', url: `${entityV3}/globalTags` }) },
  { id: 'createAspectV3', status: 200, request: () => ({ method: 'POST', url: `${entityV3}/status?createIfNotExists=false&systemMetadata=true`, payload: { value: { removed: false } } }) },
  { id: 'createAspectV3', status: 202, request: () => ({ method: 'POST', url: `${entityV3}/status?createIfNotExists=false&async=true`, payload: { value: { removed: false } } }) },
  { id: 'patchAspectV3', status: 200, request: () => ({ method: 'PATCH', url: `${entityV3}/status`, payload: { patch: [{ op: 'add', path: '/removed', value: false }] } }) },
  { id: 'evaluateTests', status: 200, request: () => ({ method: 'POST', url: '/gms/test?action=evaluate', payload: { urn: ds } }) },
  { id: 'evaluateTests', status: 200, request: () => ({ method: 'POST', url: '/gms/test?action=evaluate', payload: { urn: ds, push: true } }) },
  { id: 'evaluateTests', status: 200, request: () => ({ method: 'POST', url: '/gms/test?action=batchEvaluate', payload: { urns: [ds] } }) },
  { id: 'evaluateTests', status: 200, request: () => ({ method: 'POST', url: '/gms/test?action=evaluateDefinition', payload: { urn: ds, definition } }) },
  { id: 'evaluateTests', status: 200, request: () => ({ method: 'POST', url: '/gms/test?action=vocabulary', payload: { types: ['dataset'] } }) },
  { id: 'createAccessToken', status: 201, request: () => ({ method: 'POST', url: TOKENS, payload: { name: 'made', role: 'viewer', expiresInDays: 1 } }) },
  { id: 'listAccessTokens', status: 200, request: () => ({ method: 'GET', url: TOKENS }) },
  { id: 'whoAmI', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/auth/me' }) },
  { id: 'revokeAccessToken', status: 204, request: () => ({ method: 'DELETE', url: `${TOKENS}/${spareTokenId}` }) },
  { id: 'getEntityType', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/entity-types/dataset' }) },
  { id: 'listMyForms', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/forms/todo?count=3' }) },
  { id: 'getFormCompletion', status: 200, request: () => ({ method: 'GET', url: `/openapi/v2/forms/${enc(form)}/completion` }) },
  { id: 'pollEvents', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/events?limit=2' }) },
  { id: 'getTimeline', status: 200, request: () => ({ method: 'GET', url: `/openapi/v2/timeline/v1/${enc(ds)}?categories=TAG&raw=true` }) },
  { id: 'getTimelineV1', status: 200, request: () => ({ method: 'GET', url: `/openapi/timeline/v1/${enc(ds)}?categories=TAG` }) },
  { id: 'getTimelineLegacyV1', status: 200, request: () => ({ method: 'GET', url: `/openapi/v1/timeline/${enc(ds)}?categories=TAG` }) },
  { id: 'ingestProposal', status: 200, request: () => ({ method: 'POST', url: '/aspects?action=ingestProposal', payload: { proposal: mcp('status', { removed: false }), async: 'false' } }) },
  { id: 'ingestProposal', status: 200, request: () => ({ method: 'POST', url: '/aspects?action=ingestProposalBatch', payload: { proposals: [mcp('status', { removed: false })] } }) },
  {
    id: 'ingestProposal',
    status: 200,
    request: () => ({ method: 'POST', url: '/aspects?action=getTimeseriesAspectValues', payload: { urn: ds, entity: 'dataset', aspect: 'datasetProfile', latestValue: true } }),
  },
  { id: 'scrollTimeseries', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProfile?count=2' }) },
  { id: 'getRelationshipsV1', status: 200, request: () => ({ method: 'GET', url: `/openapi/relationships/v1/?urn=${enc(ds)}&relationshipTypes=DownstreamOf&direction=INCOMING` }) },
  { id: 'scrollRelationshipsByTypeV2', status: 200, request: () => ({ method: 'GET', url: '/openapi/v2/relationship/DownstreamOf?count=2' }) },
  { id: 'scrollRelationshipsByTypeV3', status: 200, request: () => ({ method: 'GET', url: '/openapi/v3/relationship/TaggedWith' }) },
  { id: 'scrollRelationshipsByEntityV2', status: 200, request: () => ({ method: 'GET', url: `/openapi/v2/relationship/dataset/${enc(ds)}?relationshipType[]=TaggedWith` }) },
  { id: 'scrollRelationshipsByEntityV3', status: 200, request: () => ({ method: 'GET', url: `/openapi/v3/relationship/dataset/${enc(ds)}?direction=INCOMING` }) },
  { id: 'scrollRelationships', status: 200, request: () => ({ method: 'GET', url: `/openapi/v3/relationship/scroll?destinationUrns=${enc(ds)}` }) },
  { id: 'scrollRelationshipsPost', status: 200, request: () => ({ method: 'POST', url: '/openapi/v3/relationship/scroll?relationshipTypes=TaggedWith', payload: {} }) },
  { id: 'scrollLineage', status: 200, request: () => ({ method: 'GET', url: `/openapi/v3/lineage/scroll?sourceUrns=${enc(ds)}` }) },
  { id: 'walkLineage', status: 200, request: () => ({ method: 'GET', url: `/openapi/v3/lineage/dataset/${enc(ds)}?direction=DOWNSTREAM&maxHops=2` }) },
  { id: 'scrollLineagePost', status: 200, request: () => ({ method: 'POST', url: '/openapi/v3/lineage/scroll', payload: {} }) },
  { id: 'restliRelationships', status: 200, request: () => ({ method: 'GET', url: `/relationships?urn=${enc(ds)}&types=List(DownstreamOf)&direction=INCOMING` }) },
  { id: 'getVersionedAspect', status: 200, request: () => ({ method: 'GET', url: `/aspects/${restliDs}?aspect=status&version=0` }) },
  { id: 'getEntityV2', status: 200, request: () => ({ method: 'GET', url: `/entitiesV2/${restliDs}?aspects=List(status)` }) },
  { id: 'getEntitySnapshot', status: 200, request: () => ({ method: 'GET', url: `/entities/${restliDs}` }) },
  { id: 'entitiesAction', status: 200, request: () => ({ method: 'POST', url: '/entities?action=delete', payload: { urn: datasetUrn('openapi.restli.doomed') } }) },
  {
    id: 'entitiesAction',
    status: 200,
    request: () => ({
      method: 'POST',
      url: '/entities?action=ingest',
      payload: { entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: ds, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] } } } },
    }),
  },
];

/** Requests each operation refuses for its own reasons (auth and body refusals are checked for every operation below). */
const refusals: Exercise[] = [
  { id: 'createEntity', status: 400, request: () => ({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn: ds, aspects: { nope: { value: {} } } }] }) },
  {
    id: 'createEntity',
    status: 412,
    request: () => ({ method: 'POST', url: `${V2}/dataset`, payload: [{ urn: ds, aspects: { status: { value: { removed: false }, headers: { 'If-Version-Match': '999' } } } }] }),
  },
  { id: 'getEntities', status: 400, request: () => ({ method: 'GET', url: `${V2}/dataset?count=0` }) },
  { id: 'getEntity', status: 400, request: () => ({ method: 'GET', url: `${V2}/dataset/urn:li:nope` }) },
  { id: 'getEntity', status: 404, request: () => ({ method: 'GET', url: missing }) },
  { id: 'headEntity', status: 400, request: () => ({ method: 'HEAD', url: `${V2}/dataset/urn:li:nope` }) },
  { id: 'headEntity', status: 404, request: () => ({ method: 'HEAD', url: missing }) },
  { id: 'deleteEntity', status: 400, request: () => ({ method: 'DELETE', url: `${entity}?aspects=nope` }) },
  { id: 'deleteEntity', status: 409, request: () => ({ method: 'DELETE', url: propertyUrl }) },
  { id: 'getAspect', status: 400, request: () => ({ method: 'GET', url: `${entity}/status?version=-1` }) },
  { id: 'getAspect', status: 404, request: () => ({ method: 'GET', url: `${entity}/status?version=999` }) },
  { id: 'headAspect', status: 400, request: () => ({ method: 'HEAD', url: `${V2}/dataset/urn:li:nope/status` }) },
  { id: 'headAspect', status: 404, request: () => ({ method: 'HEAD', url: `${entity}/nope` }) },
  { id: 'createAspect', status: 400, request: () => ({ method: 'POST', url: `${entity}/status`, payload: { removed: 'no' } }) },
  { id: 'createAspect', status: 409, request: () => ({ method: 'POST', url: `${entity}/status?createIfNotExists=true`, payload: { removed: false } }) },
  { id: 'createAspect', status: 412, request: () => ({ method: 'POST', url: `${entity}/status`, headers: { 'if-version-match': '999' }, payload: { removed: false } }) },
  { id: 'patchAspect', status: 400, request: () => ({ method: 'PATCH', url: `${entity}/status`, payload: { patch: [{ op: 'remove', path: '/nope' }] } }) },
  { id: 'patchAspect', status: 412, request: () => ({ method: 'PATCH', url: `${entity}/status`, headers: { 'if-version-match': '999' }, payload: { patch: [] } }) },
  { id: 'deleteAspect', status: 400, request: () => ({ method: 'DELETE', url: `${entity}/nope` }) },
  { id: 'deleteAspect', status: 409, request: () => ({ method: 'DELETE', url: `${propertyUrl}/propertyDefinition` }) },
  { id: 'scrollEntities', status: 400, request: () => ({ method: 'POST', url: `${V2}/scroll`, payload: { entities: ['nope'] } }) },
  { id: 'scrollEntitiesV3', status: 400, request: () => ({ method: 'POST', url: '/openapi/v3/entity/scroll', payload: { entities: 1 } }) },
  { id: 'createEntityV3', status: 400, request: () => ({ method: 'POST', url: `${V3}/dataset`, payload: [{ urn: ds, nope: { value: {} } }] }) },
  { id: 'createEntityV3', status: 412, request: () => ({ method: 'POST', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: { removed: false }, headers: { 'If-Version-Match': '999' } } }] }) },
  { id: 'patchEntityV3', status: 400, request: () => ({ method: 'PATCH', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: {} } }] }) },
  { id: 'patchEntityV3', status: 412, request: () => ({ method: 'PATCH', url: `${V3}/dataset`, payload: [{ urn: ds, status: { value: { patch: [] }, headers: { 'If-Version-Match': '999' } } }] }) },
  { id: 'createGenericEntitiesV3', status: 400, request: () => ({ method: 'POST', url: `${V3}/generic`, payload: { dataset: {} } }) },
  {
    id: 'createGenericEntitiesV3',
    status: 412,
    request: () => ({ method: 'POST', url: `${V3}/generic`, payload: { dataset: [{ urn: ds, status: { value: { removed: false }, headers: { 'If-Version-Match': '999' } } }] } }),
  },
  { id: 'patchGenericEntitiesV3', status: 400, request: () => ({ method: 'PATCH', url: `${V3}/generic`, payload: [] }) },
  {
    id: 'patchGenericEntitiesV3',
    status: 412,
    request: () => ({ method: 'PATCH', url: `${V3}/generic`, payload: { dataset: [{ urn: ds, status: { value: { patch: [] }, headers: { 'If-Version-Match': '999' } } }] } }),
  },
  { id: 'getEntityBatchV3', status: 400, request: () => ({ method: 'POST', url: `${V3}/dataset/batchGet`, payload: [{ urn: 'urn:li:nope' }] }) },
  { id: 'batchGetGenericEntitiesV3', status: 400, request: () => ({ method: 'POST', url: `${V3}/generic/batchGet`, payload: { dataset: 1 } }) },
  { id: 'getEntitiesV3', status: 400, request: () => ({ method: 'GET', url: `${V3}/dataset?count=0` }) },
  { id: 'scrollEntitiesOfTypeV3', status: 400, request: () => ({ method: 'POST', url: `${V3}/nope/scroll`, payload: {} }) },
  { id: 'getEntityV3', status: 400, request: () => ({ method: 'GET', url: `${V3}/dataset/urn:li:nope` }) },
  { id: 'getEntityV3', status: 404, request: () => ({ method: 'GET', url: missingV3 }) },
  { id: 'headEntityV3', status: 400, request: () => ({ method: 'HEAD', url: `${V3}/dataset/urn:li:nope` }) },
  { id: 'headEntityV3', status: 404, request: () => ({ method: 'HEAD', url: missingV3 }) },
  { id: 'deleteEntityV3', status: 400, request: () => ({ method: 'DELETE', url: `${entityV3}?aspects=nope` }) },
  { id: 'deleteEntityV3', status: 409, request: () => ({ method: 'DELETE', url: propertyUrlV3 }) },
  { id: 'getAspectV3', status: 400, request: () => ({ method: 'GET', url: `${entityV3}/status?version=-1` }) },
  { id: 'getAspectV3', status: 404, request: () => ({ method: 'GET', url: `${entityV3}/status?version=999` }) },
  { id: 'headAspectV3', status: 400, request: () => ({ method: 'HEAD', url: `${V3}/dataset/urn:li:nope/status` }) },
  { id: 'headAspectV3', status: 404, request: () => ({ method: 'HEAD', url: `${entityV3}/nope` }) },
  { id: 'deleteAspectV3', status: 400, request: () => ({ method: 'DELETE', url: `${entityV3}/nope` }) },
  { id: 'deleteAspectV3', status: 409, request: () => ({ method: 'DELETE', url: `${propertyUrlV3}/propertyDefinition` }) },
  { id: 'createAspectV3', status: 400, request: () => ({ method: 'POST', url: `${entityV3}/status`, payload: { removed: false } }) },
  { id: 'createAspectV3', status: 409, request: () => ({ method: 'POST', url: `${entityV3}/status`, payload: { value: { removed: false } } }) },
  { id: 'createAspectV3', status: 412, request: () => ({ method: 'POST', url: `${entityV3}/status?createIfNotExists=false`, payload: { value: { removed: false }, headers: { 'If-Version-Match': '999' } } }) },
  { id: 'patchAspectV3', status: 400, request: () => ({ method: 'PATCH', url: `${entityV3}/status`, payload: { patch: [{ op: 'remove', path: '/nope' }] } }) },
  { id: 'patchAspectV3', status: 412, request: () => ({ method: 'PATCH', url: `${entityV3}/status`, headers: { 'if-version-match': '999' }, payload: { patch: [] } }) },
  { id: 'evaluateTests', status: 400, request: () => ({ method: 'POST', url: '/gms/test?action=evaluate', payload: {} }) },
  { id: 'evaluateTests', status: 400, request: () => ({ method: 'POST', url: '/gms/test?action=vocabulary', payload: { types: ['nope'] } }) },
  { id: 'evaluateTests', status: 404, request: () => ({ method: 'POST', url: '/gms/test?action=evaluate', payload: { urn: datasetUrn('openapi.missing') } }) },
  { id: 'createAccessToken', status: 400, request: () => ({ method: 'POST', url: TOKENS, payload: { name: 'x', role: 'root' } }) },
  { id: 'revokeAccessToken', status: 404, request: () => ({ method: 'DELETE', url: `${TOKENS}/no-such-id` }) },
  { id: 'getEntityType', status: 400, request: () => ({ method: 'GET', url: '/openapi/v2/entity-types/nope' }) },
  { id: 'listMyForms', status: 400, request: () => ({ method: 'GET', url: '/openapi/v2/forms/todo?count=0' }) },
  { id: 'getFormCompletion', status: 400, request: () => ({ method: 'GET', url: `/openapi/v2/forms/${enc(ds)}/completion` }) },
  { id: 'getFormCompletion', status: 404, request: () => ({ method: 'GET', url: `/openapi/v2/forms/${enc('urn:li:form:openapi.missing')}/completion` }) },
  { id: 'pollEvents', status: 400, request: () => ({ method: 'GET', url: '/openapi/v2/events?after=x' }) },
  { id: 'getTimeline', status: 400, request: () => ({ method: 'GET', url: `/openapi/v2/timeline/v1/${enc(ds)}?categories=NOPE` }) },
  { id: 'getTimelineV1', status: 400, request: () => ({ method: 'GET', url: `/openapi/timeline/v1/${enc(ds)}` }) },
  { id: 'getTimelineLegacyV1', status: 400, request: () => ({ method: 'GET', url: `/openapi/v1/timeline/urn:li:nope?categories=TAG` }) },
  { id: 'ingestProposal', status: 400, request: () => ({ method: 'POST', url: '/aspects?action=ingestProposal', payload: { proposal: mcp('status', { removed: 'no' }) } }) },
  { id: 'ingestProposal', status: 409, request: () => ({ method: 'POST', url: '/aspects?action=ingestProposal', payload: { proposal: mcp('status', { removed: false }, { changeType: 'CREATE' }) } }) },
  {
    id: 'ingestProposal',
    status: 412,
    request: () => ({ method: 'POST', url: '/aspects?action=ingestProposal', payload: { proposal: mcp('status', { removed: false }, { headers: { 'If-Version-Match': '999' } }) } }),
  },
  { id: 'scrollTimeseries', status: 400, request: () => ({ method: 'GET', url: '/openapi/v2/timeseries/dataset/datasetProperties' }) },
  { id: 'getRelationshipsV1', status: 400, request: () => ({ method: 'GET', url: `/openapi/relationships/v1/?urn=${enc(ds)}&relationshipTypes=DownstreamOf&direction=UP` }) },
  { id: 'scrollRelationshipsByTypeV2', status: 400, request: () => ({ method: 'GET', url: '/openapi/v2/relationship/DownstreamOf?count=0' }) },
  { id: 'scrollRelationshipsByTypeV3', status: 400, request: () => ({ method: 'GET', url: '/openapi/v3/relationship/DownstreamOf?scrollId=x' }) },
  { id: 'scrollRelationshipsByEntityV2', status: 400, request: () => ({ method: 'GET', url: `/openapi/v2/relationship/table/${enc(ds)}` }) },
  { id: 'scrollRelationshipsByEntityV3', status: 400, request: () => ({ method: 'GET', url: `/openapi/v3/relationship/dataset/${enc(ds)}?direction=UP` }) },
  { id: 'scrollRelationships', status: 400, request: () => ({ method: 'GET', url: '/openapi/v3/relationship/scroll?sourceTypes=table' }) },
  { id: 'scrollRelationshipsPost', status: 400, request: () => ({ method: 'POST', url: '/openapi/v3/relationship/scroll', payload: { sourceFilter: { urn: ds } } }) },
  { id: 'scrollLineage', status: 400, request: () => ({ method: 'GET', url: '/openapi/v3/lineage/scroll?sourceUrns=nope' }) },
  { id: 'walkLineage', status: 400, request: () => ({ method: 'GET', url: `/openapi/v3/lineage/dataset/${enc(ds)}?direction=SIDEWAYS` }) },
  { id: 'scrollLineagePost', status: 400, request: () => ({ method: 'POST', url: '/openapi/v3/lineage/scroll?count=0', payload: {} }) },
  { id: 'restliRelationships', status: 400, request: () => ({ method: 'GET', url: `/relationships?urn=${enc(ds)}&types=List()&direction=INCOMING` }) },
  { id: 'getVersionedAspect', status: 400, request: () => ({ method: 'GET', url: '/aspects/urn:li:nope?aspect=status' }) },
  { id: 'getVersionedAspect', status: 404, request: () => ({ method: 'GET', url: `/aspects/${restliDs}?aspect=ownership` }) },
  { id: 'getEntityV2', status: 400, request: () => ({ method: 'GET', url: '/entitiesV2/urn:li:nope' }) },
  { id: 'getEntitySnapshot', status: 400, request: () => ({ method: 'GET', url: `/entities/${enc('urn:li:structuredProperty:io.example.none')}` }) },
  { id: 'getEntitySnapshot', status: 404, request: () => ({ method: 'GET', url: `/entities/${enc(datasetUrn('openapi.snapshot.never'))}` }) },
  { id: 'entitiesAction', status: 400, request: () => ({ method: 'POST', url: '/entities?action=search', payload: {} }) },
  { id: 'entitiesAction', status: 409, request: () => ({ method: 'POST', url: '/entities?action=delete', payload: { urn: property } }) },
];

/** Declared refusals no single request can provoke, and why. */
const unprovoked: Record<string, Record<number, string>> = {
  createEntity: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  patchAspect: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  createEntityV3: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  patchEntityV3: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  createGenericEntitiesV3: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  patchGenericEntitiesV3: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  patchAspectV3: { 409: 'only when concurrent writers keep winning the race for the same aspects' },
  evaluateTests: {
    409: 'only when concurrent writers keep winning the race (push, actions)',
    412: 'only when the results change under a push five times in a row',
  },
};

/** Refusals every operation of a kind gets (checked for each operation below). */
const SHARED = new Set([401, 403, 413, 415, 429]);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Operation {
  method: string;
  path: string;
  id: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: object }>; headers?: Record<string, unknown> }>;
}

describe('the API document says what each operation answers', () => {
  let t: TestApp;
  let operations: Map<string, Operation>;
  const secrets: Record<string, string> = {};
  const validators = new Map<string, ValidateFunction>();
  let components: unknown;
  const ajv = new Ajv({ strict: false, allErrors: false });

  /** The declared body schema of `status` of the operation, compiled against the document. */
  const validator = (op: Operation, status: number, contentType: string): ValidateFunction => {
    const key = `${op.id} ${status} ${contentType}`;
    let validate = validators.get(key);
    if (!validate) {
      const schema = op.responses[status]?.content?.[contentType]?.schema;
      assert.ok(schema, `${op.id} declares no ${contentType} body for ${status}`);
      validate = ajv.compile({ components, allOf: [schema] });
      validators.set(key, validate);
    }
    return validate;
  };

  /** The request with a token (the admin's by default; null: none). */
  const call = (request: InjectOptions, secret: string | null = ADMIN) =>
    t.call({ ...request, headers: { ...(request.headers ?? {}), ...(secret === null ? {} : { authorization: `Bearer ${secret}` }) } });

  /** The answer matches what the operation declares for its status: no body, or a body of the declared type and shape. */
  const assertDeclared = (op: Operation, res: Awaited<ReturnType<TestApp['call']>>) => {
    const declared = op.responses[res.status];
    assert.ok(declared, `${op.id} answered ${res.status}, which it does not declare: ${res.raw}`);
    if (op.method === 'HEAD') {
      assert.equal(declared.content, undefined, `${op.id}: a HEAD answer has no body`);
      return;
    }
    if (!declared.content) {
      assert.equal(res.raw, '', `${op.id} ${res.status} declares no body`);
      return;
    }
    const types = Object.keys(declared.content);
    assert.equal(types.length, 1);
    assert.ok(String(res.headers['content-type']).startsWith(types[0]), `${op.id} ${res.status}: ${res.headers['content-type']} is not ${types[0]}`);
    const validate = validator(op, res.status, types[0]);
    assert.ok(validate(res.body ?? res.raw), `${op.id} ${res.status}: ${ajv.errorsText(validate.errors)} in ${res.raw.slice(0, 500)}`);
    for (const name of Object.keys(declared.headers ?? {})) {
      if (name === 'Not-Found-Reason' || name === 'WWW-Authenticate' || name === 'Retry-After') assert.ok(res.headers[name.toLowerCase()], `${op.id} ${res.status} lacks ${name}`);
    }
  };

  before(async () => {
    t = await testApp({ auth: true, adminToken: ADMIN, authFailureLimit: 100_000 });
    const doc = (await t.call({ method: 'GET', url: '/openapi/v3/api-docs' })).body;
    components = doc.components;
    operations = new Map();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Omit<Operation, 'method' | 'path' | 'id'> & { operationId: string }>>)) {
      for (const [method, op] of Object.entries(item)) operations.set(op.operationId, { ...op, method: method.toUpperCase(), path, id: op.operationId });
    }
    for (const role of ['viewer', 'editor']) {
      const res = await call({ method: 'POST', url: TOKENS, payload: { name: `${role}1`, role } });
      assert.equal(res.status, 201);
      secrets[role] = res.body.token;
    }
    const spare = await call({ method: 'POST', url: TOKENS, payload: { name: 'spare', role: 'viewer' } });
    spareTokenId = spare.body.id;
    const seeds: InjectOptions[] = [
      { method: 'POST', url: `${entity}/status`, payload: { removed: false } },
      { method: 'POST', url: `${entity}/globalTags`, payload: { tags: [{ tag: 'urn:li:tag:openapi' }] } },
      { method: 'POST', url: `${doomed}/status`, payload: { removed: false } },
      { method: 'POST', url: `${V2}/dataset/${enc(datasetUrn('openapi.doomed.v3'))}/status`, payload: { removed: false } },
      {
        method: 'POST',
        url: `${propertyUrl}/propertyDefinition`,
        payload: { qualifiedName: 'openapi.live', valueType: 'urn:li:dataType:datahub.string', cardinality: 'SINGLE', entityTypes: ['urn:li:entityType:datahub.dataset'] },
      },
      { method: 'POST', url: `${V2}/form/${enc(form)}/formInfo`, payload: { name: 'Review', type: 'COMPLETION', prompts: [] } },
      {
        method: 'POST',
        url: `${V2}/test/${enc('urn:li:test:openapi')}/testInfo`,
        payload: { name: 'openapi', category: 'Governance', definition: { type: 'JSON', json: JSON.stringify(definition) } },
      },
    ];
    for (const seed of seeds) assert.equal((await call(seed)).status, 200, JSON.stringify(seed));
  });
  after(() => t.app.close());

  it('names every operation with a unique camelCase operationId', () => {
    assert.equal(operations.size, 61);
    for (const id of operations.keys()) assert.match(id, /^[a-z][a-zA-Z0-9]*$/);
  });

  for (const exercise of successes) {
    it(`${exercise.id}: a valid request answers ${exercise.status} with the declared body`, async () => {
      const op = operations.get(exercise.id);
      assert.ok(op, `no operation ${exercise.id}`);
      const res = await call(exercise.request());
      assert.equal(res.status, exercise.status, res.raw);
      assertDeclared(op, res);
    });
  }

  it('declares exactly the success statuses exercised above, for every operation', () => {
    for (const op of operations.values()) {
      const declared = Object.keys(op.responses).map(Number).filter((s) => s < 300).sort();
      const exercised = [...new Set(successes.filter((e) => e.id === op.id).map((e) => e.status))].sort();
      assert.deepEqual(exercised, declared, `${op.method} ${op.path} (${op.id})`);
    }
  });

  for (const refusal of refusals) {
    it(`${refusal.id}: answers ${refusal.status} as declared, in the Error shape`, async () => {
      const op = operations.get(refusal.id)!;
      const res = await call(refusal.request());
      assert.equal(res.status, refusal.status, res.raw);
      assertDeclared(op, res);
    });
  }

  it('provokes every refusal an operation declares for its own reasons, or says why it cannot', () => {
    for (const op of operations.values()) {
      for (const status of Object.keys(op.responses).map(Number).filter((s) => s >= 400)) {
        if (SHARED.has(status) || unprovoked[op.id]?.[status]) continue;
        // A body method's 400 is (also) the shared malformed-JSON refusal checked below.
        if (status === 400 && BODY_METHODS.has(op.method) && !refusals.some((r) => r.id === op.id && r.status === 400)) continue;
        assert.ok(refusals.some((r) => r.id === op.id && r.status === status), `${op.id} declares ${status}: provoke it in \`refusals\` or explain it in \`unprovoked\``);
      }
    }
  });

  it('public operations declare no security and no auth refusals, and answer without a token', async () => {
    const open = [...operations.values()].filter((op) => op.security !== undefined);
    assert.deepEqual(open.map((op) => op.id).sort(), ['getConfig', 'getHealth', 'getSignInHint']);
    for (const op of open) {
      assert.deepEqual(op.security, []);
      for (const status of [401, 403, 429]) assert.equal(op.responses[status], undefined, `${op.id} ${status}`);
      const res = await call(successes.find((e) => e.id === op.id)!.request(), null);
      assert.equal(res.status, 200);
    }
  });

  it('protected operations declare 401 and 429, and answer 401 without a token', async () => {
    for (const op of operations.values()) {
      if (op.security !== undefined) continue;
      assert.ok(op.responses[401] && op.responses[429], op.id);
      const res = await call(successes.find((e) => e.id === op.id)!.request(), null);
      assert.equal(res.status, 401, op.id);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assertDeclared(op, res);
    }
  });

  it('an operation declares 403 exactly when a role is refused a valid request', async () => {
    for (const op of operations.values()) {
      if (op.security !== undefined) continue;
      let refused = false;
      for (const exercise of successes.filter((e) => e.id === op.id)) {
        for (const role of ['viewer', 'editor']) {
          const res = await call(exercise.request(), secrets[role]);
          if (res.status === 403) {
            refused = true;
            assertDeclared(op, res);
          }
        }
      }
      assert.equal(op.responses[403] !== undefined, refused, `${op.id}: 403 declared ${op.responses[403] !== undefined}, a role refused ${refused}`);
    }
  });

  it('operations of a body method declare and answer 400, 413 and 415 for a bad body', async () => {
    for (const op of operations.values()) {
      if (!BODY_METHODS.has(op.method)) {
        for (const status of [413, 415]) assert.equal(op.responses[status], undefined, `${op.id} ${status}`);
        continue;
      }
      const { url } = successes.find((e) => e.id === op.id)!.request();
      const bodies: Array<[number, InjectOptions]> = [
        [400, { method: op.method as 'POST', url, payload: '{', headers: { 'content-type': 'application/json' } }],
        [413, { method: op.method as 'POST', url, payload: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } }],
        [415, { method: op.method as 'POST', url, payload: '<x/>', headers: { 'content-type': 'text/xml' } }],
      ];
      for (const [status, request] of bodies) {
        const res = await call(request);
        assert.equal(res.status, status, `${op.id}: ${res.raw}`);
        assertDeclared(op, res);
      }
    }
  });
});

describe('the API document says when failed authentications are refused (429)', () => {
  it('every protected operation declares it, and answers it once an address failed too often', async () => {
    const t = await testApp({ auth: true, adminToken: ADMIN, authFailureLimit: 1 });
    try {
      const doc = (await t.call({ method: 'GET', url: '/openapi/v3/api-docs' })).body;
      assert.equal((await t.call({ method: 'GET', url: '/openapi/v2/events' })).status, 401);
      for (const [, item] of Object.entries(doc.paths as Record<string, Record<string, Operation & { operationId: string }>>)) {
        for (const op of Object.values(item)) {
          if (op.security !== undefined) continue;
          const res = await t.call(successes.find((e) => e.id === op.operationId)!.request());
          assert.equal(res.status, 429, op.operationId);
          assert.ok(Number(res.headers['retry-after']) > 0);
          assert.ok(op.responses[429], op.operationId);
        }
      }
    } finally {
      await t.app.close();
    }
  });
});
