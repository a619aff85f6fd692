import type { AppliedChange } from '../../ingest/proposal.js';
import type { AspectView, EntityView } from '../../read/read.js';
import type { PointMetadata, SystemMetadata } from '../../store/store.js';
import { ref } from '../answers.js';
import { writtenEntities } from '../entity-writes.js';

/** DataHub's v2 aspect wrapper: `{value, systemMetadata?}`. */
export interface AspectJson {
  value: unknown;
  systemMetadata?: SystemMetadata | PointMetadata;
}

export interface EntityJson {
  urn: string;
  aspects: Record<string, AspectJson>;
}

export function aspectJson(aspect: AspectView, withSystemMetadata: boolean): AspectJson {
  return withSystemMetadata ? { value: aspect.value, systemMetadata: aspect.systemMetadata } : { value: aspect.value };
}

export function entityJson(entity: Pick<EntityView, 'urn' | 'aspects'>, withSystemMetadata: boolean): EntityJson {
  const aspects: Record<string, AspectJson> = {};
  for (const [name, aspect] of entity.aspects) aspects[name] = aspectJson(aspect, withSystemMetadata);
  return { urn: entity.urn, aspects };
}

/** Applied changes as entities, per URN in first-seen order; deletions are left out. */
export function changesJson(changes: readonly AppliedChange[], withSystemMetadata: boolean): EntityJson[] {
  return writtenEntities(changes).map((entity) => entityJson(entity, withSystemMetadata));
}

/** These shapes as named schemas of the API document (`components.schemas`). */
export const entityShapes = {
  AuditStamp: {
    type: 'object',
    required: ['time', 'actor'],
    properties: { time: { type: 'integer', description: 'Epoch milliseconds' }, actor: { type: 'string', description: 'URN of who acted' } },
  },
  SystemMetadata: {
    type: 'object',
    required: ['version', 'lastObserved', 'aspectCreated', 'aspectModified'],
    properties: {
      version: { type: 'string', description: 'The aspect\'s version: "1" after the first write, +1 per change' },
      lastObserved: { type: 'integer', description: 'Epoch milliseconds' },
      runId: { type: 'string' },
      properties: { type: 'object', additionalProperties: { type: 'string' } },
      aspectCreated: ref('AuditStamp'),
      aspectModified: ref('AuditStamp'),
    },
  },
  Aspect: {
    type: 'object',
    description: 'DataHub\'s v2 aspect wrapper (systemMetadata only when asked for with systemMetadata=true)',
    required: ['value'],
    properties: {
      value: { type: 'object', additionalProperties: true, description: 'The aspect value' },
      systemMetadata: ref('SystemMetadata'),
    },
  },
  Entity: {
    type: 'object',
    required: ['urn', 'aspects'],
    properties: { urn: { type: 'string' }, aspects: { type: 'object', additionalProperties: ref('Aspect'), description: 'Aspect name → aspect' } },
  },
  EntityUrn: { type: 'object', required: ['urn'], properties: { urn: { type: 'string' } } },
};
