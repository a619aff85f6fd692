/**
 * Route schemas of the v2 entity API: they coerce query strings and feed the OpenAPI document.
 * Bodies are validated by the registry on the write path, so here they are only described.
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

export const batch = {
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
};

export const getEntity = {
  tags,
  summary: 'Read an entity with its latest aspects',
  params: entityParams,
  querystring: {
    type: 'object',
    properties: { aspects, aspectNames: aspects, systemMetadata: bool('Include systemMetadata in each aspect') },
  },
  response: errors,
};

export const headEntity = { tags, summary: 'Does the entity exist? 204 or 404', params: entityParams };

export const deleteEntity = {
  tags,
  summary: 'Hard-delete an entity, some of its aspects, or all but its key',
  params: entityParams,
  querystring: {
    type: 'object',
    properties: { aspects, clear: bool('Delete every aspect but the key') },
  },
  response: { 400: error },
};

export const getAspect = {
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
};

export const headAspect = { tags, summary: 'Does the aspect exist? 204 or 404', params: aspectParams };

export const postAspect = {
  tags,
  summary: 'Write one aspect (upsert by default)',
  params: aspectParams,
  headers: {
    type: 'object',
    properties: { 'if-version-match': { type: 'string', description: 'Current version must equal this (-1: must not exist)' } },
  },
  querystring: {
    type: 'object',
    properties: {
      async: bool('Accepted for DataHub compatibility; the write is committed before the answer'),
      systemMetadata: bool('Include systemMetadata in the response'),
      createIfNotExists: bool('Fail with 409 when the aspect exists'),
      createEntityIfNotExists: bool('Fail with 409 when the entity exists'),
    },
  },
  body: { type: 'object', additionalProperties: true, description: 'The bare aspect value' },
  response: { 400: error, 409: error, 412: error },
};

export const patchAspect = {
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
};

export const deleteAspect = { tags, summary: 'Hard-delete one aspect with its history', params: aspectParams };
