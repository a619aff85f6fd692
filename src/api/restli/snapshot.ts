import { ValidationError } from '../../errors.js';
import type { ClientSystemMetadata, Proposal } from '../../ingest/proposal.js';
import { isRecord } from '../../json.js';
import type { Registry } from '../../registry/registry.js';
import { parseUrn } from '../../urn/urn.js';

const SNAPSHOT_PREFIX = 'com.linkedin.metadata.snapshot.';

/**
 * A legacy MetadataChangeEvent's snapshot (`POST /entities?action=ingest`) as proposals: each of
 * its aspects, keyed by Pegasus record name, becomes an UPSERT of that aspect.
 * `{"entity": {"value": {"com.linkedin.metadata.snapshot.DatasetSnapshot": {urn, aspects: [{<record name>: value}]}}}}`
 */
export function snapshotProposals(body: Record<string, unknown>, registry: Registry, systemMetadata: ClientSystemMetadata | undefined): Proposal[] {
  const union = isRecord(body.entity) ? body.entity.value : undefined;
  if (!isRecord(union) || Object.keys(union).length !== 1) {
    throw new ValidationError('entity must be {"value": {"com.linkedin.metadata.snapshot.<Type>Snapshot": {"urn": …, "aspects": […]}}}');
  }
  const [snapshotClass, snapshot] = Object.entries(union)[0];
  const where = `entity.value.${snapshotClass}`;
  if (!isRecord(snapshot) || typeof snapshot.urn !== 'string' || !Array.isArray(snapshot.aspects)) {
    throw new ValidationError(`${where} must be {"urn": …, "aspects": […]}`);
  }
  const urn = parseUrn(snapshot.urn);
  const entity = registry.entityOf(urn);
  // DatasetSnapshot holds datasets, MLModelSnapshot mlModels: the name is the type's, capitalised.
  if (snapshotClass.toLowerCase() !== `${SNAPSHOT_PREFIX}${entity.name}Snapshot`.toLowerCase()) {
    throw new ValidationError(`${snapshotClass} cannot hold ${snapshot.urn}, an entity of type ${entity.name}`);
  }
  return snapshot.aspects.map((member: unknown, i: number): Proposal => {
    if (!isRecord(member) || Object.keys(member).length !== 1) {
      throw new ValidationError(`${where}.aspects[${i}] must be {"<aspect record name>": <aspect value>}`);
    }
    const [recordName, value] = Object.entries(member)[0];
    const aspect = registry.aspectByPegasusClass(entity, recordName);
    if (!aspect) throw new ValidationError(`${where}.aspects[${i}]: ${recordName} is not an aspect of entity type ${entity.name}`);
    return { urn: urn.text, aspect: aspect.name, changeType: 'UPSERT', value, ...(systemMetadata ? { systemMetadata } : {}) };
  });
}
