import { NotFoundError, ValidationError } from '../../errors.js';
import type { ClientSystemMetadata, Proposal } from '../../ingest/proposal.js';
import { isRecord } from '../../json.js';
import type { EntityView } from '../../read/read.js';
import type { EntitySpec, Registry, SnapshotSpec } from '../../registry/registry.js';
import { parseUrn, type Urn } from '../../urn/urn.js';

const SHAPE = '{"value": {"com.linkedin.metadata.snapshot.<Type>Snapshot": {"urn": …, "aspects": […]}}}';

/**
 * A legacy MetadataChangeEvent's Entity (`{"value": {<snapshot record name>: {urn, aspects}}}`,
 * as `/entities?action=ingest|batchIngest` take it) as proposals: each aspect, keyed by its
 * Pegasus record name, an UPSERT. The snapshot record must be one of DataHub's (registry data,
 * snapshots.json) and hold the URN's entity type. `where` names the entity in errors (`entity`,
 * `entities[2]`).
 */
export function snapshotProposals(entityBody: unknown, where: string, registry: Registry, systemMetadata: ClientSystemMetadata | undefined): Proposal[] {
  const union = isRecord(entityBody) ? entityBody.value : undefined;
  if (!isRecord(union) || Object.keys(union).length !== 1) throw new ValidationError(`${where} must be ${SHAPE}`);
  const [snapshotClass, snapshot] = Object.entries(union)[0];
  const at = `${where}.value.${snapshotClass}`;
  const spec = registry.snapshot(snapshotClass);
  if (!spec) {
    throw new ValidationError(`${where}.value: ${snapshotClass} is not one of DataHub's snapshot records (${registry.snapshots().map((s) => s.name.split('.').pop()).join(', ')})`);
  }
  if (!isRecord(snapshot) || typeof snapshot.urn !== 'string' || !Array.isArray(snapshot.aspects)) throw new ValidationError(`${at} must be {"urn": …, "aspects": […]}`);
  const urn = parseUrn(snapshot.urn);
  const entity = registry.entityOf(urn);
  if (entity !== spec.entity) throw new ValidationError(`${snapshotClass} cannot hold ${snapshot.urn}, an entity of type ${entity.name}`);
  registry.checkKey(urn, entity);
  return snapshot.aspects.map((member: unknown, i: number): Proposal => {
    if (!isRecord(member) || Object.keys(member).length !== 1) throw new ValidationError(`${at}.aspects[${i}] must be {"<aspect record name>": <aspect value>}`);
    const [recordName, value] = Object.entries(member)[0];
    // The snapshot's union first; any other aspect of the entity type is taken too (DataHub's union would refuse it).
    const aspect = spec.aspects.find((a) => a.pegasusClass === recordName) ?? registry.aspectByPegasusClass(entity, recordName);
    if (!aspect) throw new ValidationError(`${at}.aspects[${i}]: ${recordName} is not an aspect of entity type ${entity.name}`);
    const proposal: Proposal = { urn: urn.text, aspect: aspect.name, changeType: 'UPSERT', value, ...(systemMetadata ? { systemMetadata } : {}) };
    // In a batch, a refused value names its entity and aspect; a single snapshot's needs no place.
    if (where !== 'entity') proposal.where = `${at}.aspects[${i}]`;
    return proposal;
  });
}

/** The snapshot record of the URN's entity type; a type DataHub has none for cannot be read as one. */
export function snapshotFor(registry: Registry, urn: Urn, entity: EntitySpec): SnapshotSpec {
  const spec = registry.snapshotOf(entity);
  if (!spec) throw new ValidationError(`Entity type ${entity.name} has no snapshot record in DataHub's model: read ${urn.text} with /entitiesV2 instead`);
  return spec;
}

/**
 * An entity as DataHub's `GET /entities/{urn}` answers it: `{"value": {<snapshot record name>:
 * {urn, aspects: [{<aspect record name>: value}…]}}}`, the aspects its union carries in the
 * union's order, the key among them (made from the URN when it was never written).
 */
export function snapshotOf(registry: Registry, spec: SnapshotSpec, urn: Urn, found: EntityView | undefined): Record<string, unknown> {
  if (!found || found.aspects.size === 0) throw new NotFoundError(`Entity ${urn.text} not found`);
  const aspects: Array<Record<string, unknown>> = [];
  for (const aspect of spec.aspects) {
    const value = found.aspects.get(aspect.name)?.value ?? (aspect === spec.entity.keyAspect ? registry.keyOf(urn, spec.entity) : undefined);
    if (value !== undefined) aspects.push({ [aspect.pegasusClass ?? aspect.name]: value });
  }
  return { value: { [spec.name]: { urn: urn.text, aspects } } };
}
