import type { AppliedChange } from '../../ingest/proposal.js';
import type { AspectView, EntityView } from '../../read/read.js';
import type { AuditStamp, PointMetadata, SystemMetadata } from '../../store/store.js';
import { ref } from '../answers.js';
import { writtenEntities } from '../entity-writes.js';

/**
 * DataHub's v3 shapes: an entity is `{urn, <aspect name>: {value, systemMetadata?, auditStamp?}}`
 * (aspects at the top level, not under `aspects` as in v2).
 */

export interface AspectJsonV3 {
  value: unknown;
  systemMetadata?: SystemMetadata | PointMetadata;
  /** Who wrote this value and when (DataHub's `created` of the version): with systemMetadata only, not for a timeseries point. */
  auditStamp?: AuditStamp;
}

export type EntityJsonV3 = { urn: string } & { [aspect: string]: AspectJsonV3 | string };

export function aspectJsonV3(aspect: AspectView, withSystemMetadata: boolean): AspectJsonV3 {
  if (!withSystemMetadata) return { value: aspect.value };
  const systemMetadata = aspect.systemMetadata;
  // DataHub answers a timeseries aspect's latest point without an audit stamp.
  if (systemMetadata.version === undefined) return { value: aspect.value, systemMetadata };
  return { value: aspect.value, systemMetadata, auditStamp: systemMetadata.aspectModified };
}

export function entityJsonV3(entity: Pick<EntityView, 'urn' | 'aspects'>, withSystemMetadata: boolean): EntityJsonV3 {
  const json: EntityJsonV3 = { urn: entity.urn };
  for (const [name, aspect] of entity.aspects) json[name] = aspectJsonV3(aspect, withSystemMetadata);
  return json;
}

/** Applied changes as entities, per URN in first-seen order; deletions are left out. */
export function changesJsonV3(changes: readonly AppliedChange[], withSystemMetadata: boolean): EntityJsonV3[] {
  return writtenEntities(changes).map((entity) => entityJsonV3(entity, withSystemMetadata));
}

/** These shapes as named schemas of the API document (`components.schemas`). */
export const entityShapesV3 = {
  AspectV3: {
    type: 'object',
    description: 'DataHub\'s v3 aspect wrapper (systemMetadata and auditStamp only when asked for with systemMetadata=true)',
    required: ['value'],
    properties: {
      value: { type: 'object', additionalProperties: true, description: 'The aspect value' },
      systemMetadata: ref('SystemMetadata'),
      auditStamp: ref('AuditStamp'),
    },
  },
  EntityV3: {
    type: 'object',
    description: '{urn, <aspect name>: aspect…}',
    required: ['urn'],
    properties: { urn: { type: 'string' } },
    additionalProperties: ref('AspectV3'),
  },
  EntityMapV3: {
    type: 'object',
    description: 'Entity type (as named in the request) → entities',
    additionalProperties: { type: 'array', items: ref('EntityV3') },
  },
};
