import { ref, type Answers } from '../answers.js';

/**
 * Route schemas of the v3 entity API: they coerce query strings and feed the OpenAPI document.
 * Bodies are validated on the write path (and their shape by the routes), so here they are only
 * described. Defaults are DataHub's: `async` is true on batch routes and false on single-aspect
 * ones; the single-aspect POST creates by default (createIfNotExists=true).
 */

export const V3 = '/openapi/v3/entity';

export interface WithSystemMetadata {
  systemMetadata?: boolean;
}
export interface BatchQuery extends WithSystemMetadata {
  async?: boolean;
}
export interface EntityQuery extends WithSystemMetadata {
  aspects?: string[];
  aspectNames?: string[];
}
export interface DeleteQuery {
  aspects?: string[];
  clear?: boolean;
}
export interface AspectQuery extends WithSystemMetadata {
  version?: number;
}
export interface WriteAspectQuery extends BatchQuery {
  createIfNotExists?: boolean;
  createIfEntityNotExists?: boolean;
  createEntityIfNotExists?: boolean;
}

const tags = ['Entity API v3'];
const bool = (description: string) => ({ type: 'boolean', description });
const aspects = {
  type: 'array',
  items: { type: 'string' },
  description: 'Aspect names, repeated or comma-separated; absent means all aspects.',
};
const entityNameParam = { type: 'string', description: 'Entity type, e.g. dataset' };
const ignoredEntityNameParam = { type: 'string', description: 'Entity type; ignored, as in DataHub: the URN\'s own type counts (e.g. `generic`)' };
const urnParam = { type: 'string', description: 'Percent-encoded entity URN' };
const aspectParam = { type: 'string', description: 'Aspect name, canonical or all-lowercase' };

const typeParams = { type: 'object', properties: { entityName: ignoredEntityNameParam }, required: ['entityName'] };
const entityParams = { type: 'object', properties: { entityName: ignoredEntityNameParam, urn: urnParam }, required: ['entityName', 'urn'] };
const aspectParams = { type: 'object', properties: { entityName: ignoredEntityNameParam, urn: urnParam, aspectName: aspectParam }, required: ['entityName', 'urn', 'aspectName'] };
const typedAspectParams = {
  type: 'object',
  properties: { entityName: { ...entityNameParam, description: 'Entity type: the URN\'s own, in any case' }, urn: urnParam, aspectName: aspectParam },
  required: ['entityName', 'urn', 'aspectName'],
};

const error = { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } };
const refusals = { 400: error, 404: error, 409: error, 412: error };

const systemMetadata = bool('Include systemMetadata and auditStamp in each aspect (default false)');
const batchAsync = bool('Answer 202 (default true); the write is committed before the answer either way');
const entities = { type: 'array', items: ref('EntityV3') };

const INVALID_URN = 'An invalid or too long URN (unknown entity type, bad key)';
const CONCURRENT = 'Too many concurrent writes to the same aspects';
const WRITE_400 = 'An invalid URN, an unknown aspect name, a body of the wrong shape, or an aspect value its schema or rules refuse';
const IF_VERSION = 'An aspect\'s If-Version-Match does not hold';

const aspectWrapper = {
  type: 'object',
  properties: {
    value: { type: 'object', additionalProperties: true },
    systemMetadata: { type: 'object', additionalProperties: true },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'e.g. {"If-Version-Match": "3"}, or {"If-None-Match": "*"} on a create' },
  },
};
const entityBody = {
  type: 'object',
  description: '{urn, <aspect name>: {value, systemMetadata?, headers?}…}',
  properties: { urn: { type: 'string' } },
  additionalProperties: aspectWrapper,
};
const patchDocument = {
  description: '{patch: [JSON Patch operations], arrayPrimaryKeys?: {<array field>: [key fields]}}, or a bare array of operations',
  oneOf: [
    {
      type: 'object',
      properties: {
        patch: { type: 'array', items: { type: 'object', additionalProperties: true } },
        arrayPrimaryKeys: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
    { type: 'array', items: { type: 'object', additionalProperties: true } },
  ],
};
const batchGetItem = {
  type: 'object',
  description: '{urn, <aspect name>?: {headers?: {"If-Version-Match": "<version>"}}…}: only urn means every aspect',
  properties: { urn: { type: 'string' } },
  additionalProperties: { type: 'object', properties: { headers: { type: 'object', additionalProperties: { type: 'string' } } } },
};

export const createEntities = {
  operationId: 'createEntityV3',
  tags,
  summary: 'Upsert aspects of several entities (of any types) in one transaction',
  params: typeParams,
  querystring: {
    type: 'object',
    properties: {
      async: batchAsync,
      systemMetadata,
      createIfNotExists: bool('Accepted for DataHub compatibility; batch writes always upsert'),
      createEntityIfNotExists: bool('Accepted for DataHub compatibility; batch writes always upsert'),
    },
  },
  body: { type: 'array', items: entityBody },
  response: refusals,
  answers: {
    200: { description: 'With async=false: the entities with the aspects written, as stored', body: entities },
    202: { description: 'By default (async=true): the same body. Committed before the answer all the same', body: entities },
    400: WRITE_400,
    409: CONCURRENT,
    412: IF_VERSION,
  } satisfies Answers,
};

export const patchEntities = {
  operationId: 'patchEntityV3',
  tags,
  summary: 'Patch aspects of several entities (of any types) in one transaction',
  params: typeParams,
  querystring: { type: 'object', properties: { async: batchAsync, systemMetadata } },
  body: {
    type: 'array',
    items: { ...entityBody, description: '{urn, <aspect name>: {value: {patch, arrayPrimaryKeys?} | [op…], systemMetadata?, headers?}…}' },
  },
  response: refusals,
  answers: {
    200: { description: 'With async=false: the entities with the patched aspects, as stored', body: entities },
    202: { description: 'By default (async=true): no body. Committed before the answer all the same' },
    400: `${WRITE_400}, or a patch that does not apply`,
    409: CONCURRENT,
    412: IF_VERSION,
  } satisfies Answers,
};

const entityMap = { type: 'object', description: '{<entity type>: [entity…]}; the types name groups only', additionalProperties: { type: 'array', items: entityBody } };

export const createGeneric = {
  operationId: 'createGenericEntitiesV3',
  tags,
  summary: 'Upsert aspects of entities grouped by type, all in one transaction',
  querystring: { type: 'object', properties: { async: batchAsync, systemMetadata } },
  body: entityMap,
  response: refusals,
  answers: {
    200: { description: 'With async=false: per group, the entities written, as stored', body: ref('EntityMapV3') },
    202: { description: 'By default (async=true): the same body. Committed before the answer all the same', body: ref('EntityMapV3') },
    400: WRITE_400,
    409: CONCURRENT,
    412: IF_VERSION,
  } satisfies Answers,
};

export const patchGeneric = {
  operationId: 'patchGenericEntitiesV3',
  tags,
  summary: 'Patch aspects of entities grouped by type, all in one transaction',
  querystring: { type: 'object', properties: { async: batchAsync, systemMetadata } },
  body: entityMap,
  response: refusals,
  answers: {
    200: { description: 'With async=false: per group, the entities patched, as stored', body: ref('EntityMapV3') },
    202: { description: 'By default (async=true): per group, an empty list. Committed before the answer all the same', body: ref('EntityMapV3') },
    400: `${WRITE_400}, or a patch that does not apply`,
    409: CONCURRENT,
    412: IF_VERSION,
  } satisfies Answers,
};

export const batchGet = {
  operationId: 'getEntityBatchV3',
  tags,
  summary: 'Read several entities (of any types), each with all or some aspects, at a version',
  params: typeParams,
  querystring: { type: 'object', properties: { systemMetadata } },
  body: { type: 'array', items: batchGetItem },
  response: { 400: error },
  answers: {
    200: { description: 'The entities found, in the order asked; entities without any of the asked aspects are left out', body: entities },
    400: `${INVALID_URN}, a body of the wrong shape, or an If-Version-Match that is not a version`,
  } satisfies Answers,
};

export const batchGetGeneric = {
  operationId: 'batchGetGenericEntitiesV3',
  tags,
  summary: 'Read entities grouped by type, as batchGet does',
  querystring: { type: 'object', properties: { systemMetadata } },
  body: { type: 'object', additionalProperties: { type: 'array', items: batchGetItem } },
  response: { 400: error },
  answers: {
    200: { description: 'Per group, the entities found', body: ref('EntityMapV3') },
    400: `${INVALID_URN}, a body of the wrong shape, or an If-Version-Match that is not a version`,
  } satisfies Answers,
};

export const getEntity = {
  operationId: 'getEntityV3',
  tags,
  summary: 'Read an entity with its latest aspects',
  params: entityParams,
  querystring: { type: 'object', properties: { aspects, aspectNames: aspects, systemMetadata } },
  response: { 400: error, 404: error },
  answers: {
    200: { description: 'The entity', body: ref('EntityV3') },
    400: INVALID_URN,
    404: 'No such entity, or none of the asked aspects',
  } satisfies Answers,
};

export const headEntity = {
  operationId: 'headEntityV3',
  tags,
  summary: 'Does the entity exist (and is not soft-deleted)? 204 or 404',
  params: entityParams,
  answers: { 204: { description: 'The entity exists and is not soft-deleted' }, 400: INVALID_URN, 404: 'No such entity, or it is soft-deleted (status.removed)' } satisfies Answers,
};

export const deleteEntity = {
  operationId: 'deleteEntityV3',
  tags,
  summary: 'Hard-delete an entity, some of its aspects, or all but its key',
  params: entityParams,
  querystring: { type: 'object', properties: { aspects, clear: bool('Delete every aspect but the key') } },
  response: { 400: error, 409: error },
  answers: {
    200: { description: 'Deleted (also when there was nothing to delete); no body' },
    400: `${INVALID_URN}, or an unknown aspect name`,
    409: `${CONCURRENT}, or a structured property that is still live (soft-delete it first)`,
  } satisfies Answers,
};

export const getAspect = {
  operationId: 'getAspectV3',
  tags,
  summary: 'Read one aspect, latest or an earlier version',
  params: aspectParams,
  querystring: {
    type: 'object',
    properties: { version: { type: 'integer', minimum: 0, description: '0 = latest (default); N = the N-th value written' }, systemMetadata },
  },
  response: { 400: error, 404: error },
  answers: {
    200: { description: 'The aspect', body: ref('AspectV3') },
    400: `${INVALID_URN}, or a bad parameter (e.g. a negative version)`,
    404: 'An unknown aspect name, or no such aspect or version',
  } satisfies Answers,
};

export const headAspect = {
  operationId: 'headAspectV3',
  tags,
  summary: 'Does the aspect exist (on an entity that is not soft-deleted)? 204 or 404',
  params: aspectParams,
  answers: { 204: { description: 'The aspect exists' }, 400: INVALID_URN, 404: 'An unknown aspect name, no such aspect, or a soft-deleted entity' } satisfies Answers,
};

export const deleteAspect = {
  operationId: 'deleteAspectV3',
  tags,
  summary: 'Hard-delete one aspect with its history',
  params: aspectParams,
  response: { 400: error, 409: error },
  answers: {
    200: { description: 'Deleted (also when there was nothing to delete); no body' },
    400: `${INVALID_URN}, or an unknown aspect name`,
    409: `${CONCURRENT}, or the definition of a structured property that is still live (soft-delete it first)`,
  } satisfies Answers,
};

const ifVersionHeader = {
  type: 'object',
  properties: { 'if-version-match': { type: 'string', description: 'Current version must equal this (-1: must not exist); the body\'s headers win' } },
};
const conditionHeaders = {
  type: 'object',
  properties: {
    ...ifVersionHeader.properties,
    'if-none-match': { type: 'string', description: '`*`: a create that finds the aspect (or entity) writes nothing instead of failing; the body\'s headers win' },
  },
};

export const postAspect = {
  operationId: 'createAspectV3',
  tags,
  summary: 'Write one aspect: creates it by default (createIfNotExists=true), upserts with createIfNotExists=false',
  params: typedAspectParams,
  headers: conditionHeaders,
  querystring: {
    type: 'object',
    properties: {
      async: bool('Answer 202 (default false); the write is committed before the answer either way'),
      systemMetadata,
      createIfNotExists: bool('Refuse (409) when the aspect exists (default true), unless If-None-Match: *'),
      createIfEntityNotExists: bool('Refuse (409) when the entity exists (default false), unless If-None-Match: *'),
      createEntityIfNotExists: bool('Another spelling of createIfEntityNotExists'),
    },
  },
  body: {
    type: 'object',
    required: ['value'],
    properties: aspectWrapper.properties,
    description: '{value, systemMetadata?, headers?}',
  },
  response: refusals,
  answers: {
    200: { description: 'The entity with the aspect written (as stored, when If-None-Match: * dropped the create)', body: ref('EntityV3') },
    202: { description: 'With async=true: the same body. Committed before the answer all the same', body: ref('EntityV3') },
    400: `${WRITE_400}, or a URN of another type than the path names`,
    409: `${CONCURRENT}, or (createIfNotExists, createIfEntityNotExists, without If-None-Match: *) the aspect or entity exists`,
    412: 'If-Version-Match does not hold',
  } satisfies Answers,
};

export const patchAspect = {
  operationId: 'patchAspectV3',
  tags,
  summary: 'Apply a JSON Patch (RFC 6902, with arrayPrimaryKeys) to one aspect',
  params: typedAspectParams,
  headers: ifVersionHeader,
  querystring: {
    type: 'object',
    properties: { async: bool('Accepted for DataHub compatibility (default false): the answer is 200 either way'), systemMetadata },
  },
  body: patchDocument,
  response: refusals,
  answers: {
    200: { description: 'The entity with the patched aspect', body: ref('EntityV3') },
    400: `${WRITE_400}, a URN of another type than the path names, or a patch that does not apply`,
    409: CONCURRENT,
    412: 'If-Version-Match does not hold',
  } satisfies Answers,
};
