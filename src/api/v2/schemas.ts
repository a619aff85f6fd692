import { ref, type Answers } from '../answers.js';

/**
 * Route schemas of the v2 entity API: they coerce query strings and feed the OpenAPI document.
 * Bodies are validated by the registry on the write path, so here they are only described.
 * `response` schemas serialize answers; `answers` only document them (see ../answers.ts).
 * Operation ids are the method names of DataHub's GenericEntitiesController.
 */

export interface BatchQuery {
  async?: boolean;
  systemMetadata?: boolean;
}
export interface EntityQuery {
  aspects?: string[];
  aspectNames?: string[];
  systemMetadata?: boolean;
}
export interface DeleteQuery {
  aspects?: string[];
  clear?: boolean;
}
export interface AspectQuery {
  version?: number;
  systemMetadata?: boolean;
}
export interface WriteAspectQuery {
  async?: boolean;
  systemMetadata?: boolean;
  createIfNotExists?: boolean;
  createEntityIfNotExists?: boolean;
}
export interface PatchAspectQuery {
  systemMetadata?: boolean;
}

const tags = ['Entity API v2'];
const bool = (description: string) => ({ type: 'boolean', description });
const aspects = {
  type: 'array',
  items: { type: 'string' },
  description: 'Aspect names, repeated or comma-separated; absent means all aspects.',
};
const typeParam = { type: 'string', description: 'Entity type, e.g. dataset' };
const urnParam = { type: 'string', description: 'Percent-encoded entity URN' };
const aspectParam = { type: 'string', description: 'Aspect name, canonical or all-lowercase' };

const typeParams = { type: 'object', properties: { type: typeParam }, required: ['type'] };
const entityParams = { type: 'object', properties: { type: typeParam, urn: urnParam }, required: ['type', 'urn'] };
const aspectParams = {
  type: 'object',
  properties: { type: typeParam, urn: urnParam, aspect: aspectParam },
  required: ['type', 'urn', 'aspect'],
};

const aspectWrapper = {
  type: 'object',
  properties: { value: { type: 'object', additionalProperties: true }, systemMetadata: { type: 'object', additionalProperties: true } },
};
const entityBody = {
  type: 'object',
  properties: { urn: { type: 'string' }, aspects: { type: 'object', additionalProperties: aspectWrapper } },
};
const error = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' } },
};
const errors = { 400: error, 404: error };

const entity = { description: 'The entity', body: ref('Entity') };
const INVALID_URN = 'An invalid URN';
const UNKNOWN_ASPECT = 'An invalid URN, or an unknown aspect name';
const CONCURRENT = 'Too many concurrent writes to the same aspects';
/** What every write may be refused for once its input has been read. */
const writeRefusals: Answers = {
  400: 'An invalid URN, an unknown entity type or aspect name, a URN of another type than the path names, or an aspect value its schema or rules refuse',
  409: CONCURRENT,
};

export const batch = {
  operationId: 'createEntity',
  tags,
  summary: 'Upsert aspects of several entities in one transaction',
  params: typeParams,
  querystring: {
    type: 'object',
    properties: {
      async: bool('Answer 202 with the URNs (default true); the write is committed either way'),
      systemMetadata: bool('Include systemMetadata in the response'),
      createIfNotExists: bool('Accepted for DataHub compatibility; batch writes always upsert'),
      createEntityIfNotExists: bool('Accepted for DataHub compatibility; batch writes always upsert'),
    },
  },
  body: { type: 'array', items: entityBody },
  response: { 400: error, 412: error },
  answers: {
    200: { description: 'With async=false: the entities with the aspects written', body: { type: 'array', items: ref('Entity') } },
    202: { description: 'By default (async=true): the URNs written. Committed before the answer all the same', body: { type: 'array', items: ref('EntityUrn') } },
    ...writeRefusals,
    412: 'An aspect\'s If-Version-Match header does not hold',
  },
};

export const getEntity = {
  operationId: 'getEntity',
  tags,
  summary: 'Read an entity with its latest aspects',
  params: entityParams,
  querystring: {
    type: 'object',
    properties: { aspects, aspectNames: aspects, systemMetadata: bool('Include systemMetadata in each aspect') },
  },
  response: errors,
  answers: { 200: entity, 400: `${INVALID_URN} or parameter`, 404: 'No such entity' },
};

export const headEntity = {
  operationId: 'headEntity',
  tags,
  summary: 'Does the entity exist (and is not soft-deleted)? 204 or 404',
  params: entityParams,
  answers: { 204: { description: 'The entity exists and is not soft-deleted' }, 400: INVALID_URN, 404: 'No such entity, or it is soft-deleted (status.removed)' },
};

export const deleteEntity = {
  operationId: 'deleteEntity',
  tags,
  summary: 'Hard-delete an entity, some of its aspects, or all but its key',
  params: entityParams,
  querystring: {
    type: 'object',
    properties: { aspects, clear: bool('Delete every aspect but the key') },
  },
  response: { 400: error },
  answers: {
    200: { description: 'Deleted (also when there was nothing to delete); no body' },
    400: UNKNOWN_ASPECT,
    409: `${CONCURRENT}, or a structured property that is still live (soft-delete it first)`,
  },
};

export const getAspect = {
  operationId: 'getAspect',
  tags,
  summary: 'Read one aspect, latest or an earlier version',
  params: aspectParams,
  querystring: {
    type: 'object',
    properties: {
      version: { type: 'integer', minimum: 0, description: '0 = latest; N = the N-th value written' },
      systemMetadata: bool('Include systemMetadata'),
    },
  },
  response: errors,
  answers: {
    200: { description: 'The aspect', body: ref('Aspect') },
    400: `${INVALID_URN} or parameter (e.g. a negative version)`,
    404: 'An unknown aspect name, or no such aspect or version',
  },
};

export const headAspect = {
  operationId: 'headAspect',
  tags,
  summary: 'Does the aspect exist (on an entity that is not soft-deleted)? 204 or 404',
  params: aspectParams,
  answers: { 204: { description: 'The aspect exists' }, 400: INVALID_URN, 404: 'An unknown aspect name, no such aspect, or a soft-deleted entity' },
};

export const postAspect = {
  operationId: 'createAspect',
  tags,
  summary: 'Write one aspect (upsert by default)',
  params: aspectParams,
  headers: {
    type: 'object',
    properties: {
      'if-version-match': { type: 'string', description: 'Current version must equal this (-1: must not exist)' },
      'if-none-match': { type: 'string', description: '`*`: a create that finds the aspect (or entity) writes nothing instead of failing' },
    },
  },
  querystring: {
    type: 'object',
    properties: {
      async: bool('Accepted for DataHub compatibility; the write is committed before the answer'),
      systemMetadata: bool('Include systemMetadata in the response'),
      createIfNotExists: bool('Fail with 409 when the aspect exists (unless If-None-Match: *)'),
      createEntityIfNotExists: bool('Fail with 409 when the entity exists (unless If-None-Match: *)'),
    },
  },
  body: { type: 'object', additionalProperties: true, description: 'The bare aspect value' },
  response: { 400: error, 409: error, 412: error },
  answers: {
    200: { description: 'The entity with the aspect written (as stored, when If-None-Match: * dropped the create)', body: ref('Entity') },
    202: { description: 'With async=true: the same body. Committed before the answer all the same', body: ref('Entity') },
    ...writeRefusals,
    409: `${CONCURRENT}, or (createIfNotExists, createEntityIfNotExists, without If-None-Match: *) the aspect or entity exists`,
    412: 'If-Version-Match does not hold',
  },
};

export const patchAspect = {
  operationId: 'patchAspect',
  tags,
  summary: 'Apply a JSON Patch (RFC 6902, with arrayPrimaryKeys) to one aspect',
  params: aspectParams,
  querystring: { type: 'object', properties: { systemMetadata: bool('Include systemMetadata in the response') } },
  body: {
    type: 'object',
    properties: {
      patch: { type: 'array', items: { type: 'object', additionalProperties: true } },
      arrayPrimaryKeys: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
  },
  response: { 400: error, 412: error },
  answers: {
    200: { description: 'The entity with the patched aspect', body: ref('Entity') },
    ...writeRefusals,
    400: 'An invalid URN, an unknown entity type or aspect name, a URN of another type than the path names, a patch that does not apply, or a result its schema or rules refuse',
    412: 'If-Version-Match does not hold',
  },
};

export const deleteAspect = {
  operationId: 'deleteAspect',
  tags,
  summary: 'Hard-delete one aspect with its history',
  params: aspectParams,
  answers: {
    200: { description: 'Deleted (also when there was nothing to delete); no body' },
    400: UNKNOWN_ASPECT,
    409: `${CONCURRENT}, or the definition of a structured property that is still live (soft-delete it first)`,
  },
};
