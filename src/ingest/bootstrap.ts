import type { Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import type { Ingest } from './ingest.js';
import { SYSTEM_SOURCE, type Proposal } from './proposal.js';

export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/**
 * Writes the seed entities that are missing (all of them on first start), through the write path.
 * Existing ones are left as they are, so an operator's edits survive restarts.
 */
export async function bootstrap(registry: Registry, reader: Reader, ingest: Ingest): Promise<number> {
  const proposals: Proposal[] = [];
  for (const seed of registry.seed()) {
    if (await reader.exists(seed.urn)) continue;
    for (const [aspect, value] of Object.entries(seed.aspects)) {
      proposals.push({ urn: seed.urn, aspect, changeType: 'UPSERT', value });
    }
  }
  await ingest.ingest(proposals, { actor: SYSTEM_ACTOR, source: SYSTEM_SOURCE, admin: true });
  return proposals.length;
}
