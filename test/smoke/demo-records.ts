import type { InjectOptions } from 'fastify';
import type { Registry } from '../../src/registry/registry.js';
import { pyDumps, pythonHeaders } from '../restli/clients.js';
import { avroToRestli, restliName } from './avro-json.js';

/**
 * One record of an MCE file (DataHub's `datahub ingest` file source) as DataHub's Python REST
 * emitter sends it: an MCE to `/entities?action=ingest` (emit_mce: the snapshot keyed by its
 * Rest.li name, with the run's system metadata), an MCP to `/aspects?action=ingestProposal`
 * (emit_mcp: `{"proposal": …, "async": "false"}`), one request per record.
 */
export function demoRequest(registry: Registry, record: Record<string, unknown>, runId: string, lastObserved: number): InjectOptions {
  const systemMetadata = { lastObserved, runId };
  const headers = pythonHeaders();
  if (record.proposedSnapshot && typeof record.proposedSnapshot === 'object') {
    const [[avroClass, snapshot]] = Object.entries(record.proposedSnapshot as Record<string, { urn: string; aspects: unknown[] }>);
    const aspects = snapshot.aspects.map((member) => {
      const [[recordName, value]] = Object.entries(member as Record<string, unknown>);
      const name = restliName(recordName);
      return { [name]: avroToRestli(registry, schemaOf(registry, name), value) };
    });
    const body = { entity: { value: { [restliName(avroClass)]: { urn: snapshot.urn, aspects } } }, systemMetadata };
    return { method: 'POST', url: '/entities?action=ingest', headers: { ...headers, 'x-restli-method': 'action' }, payload: pyDumps(body) };
  }
  const proposal: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== null && key !== 'auditHeader') proposal[key] = value;
  proposal.systemMetadata = { ...(dropNulls(record.systemMetadata) ?? {}), ...systemMetadata };
  return { method: 'POST', url: '/aspects?action=ingestProposal', headers: { ...headers, 'x-restli-method': 'action' }, payload: pyDumps({ proposal, async: 'false' }) };
}

/** The schema of an aspect record by its Rest.li name, from any entity type that has it. */
function schemaOf(registry: Registry, pegasusClass: string) {
  for (const entity of registry.entityTypes()) {
    const aspect = registry.aspectByPegasusClass(entity, pegasusClass);
    if (aspect) return aspect.schema;
  }
  return undefined;
}

function dropNulls(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}
