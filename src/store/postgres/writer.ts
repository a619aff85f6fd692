import type pg from 'pg';
import { jsonText } from '../../json.js';
import { StaleWriteError, type AspectWrite, type ChangeEvent, type CommitBatch } from '../store.js';
import { writeIndex } from './search-index.js';

/** Held (per transaction) while appending events, so sequences become visible in commit order. */
const EVENT_LOCK = 7_202_612;

/**
 * Writes a batch inside the caller's transaction: the aspects (each write a compare-and-set on
 * its row), the search index, then the change-log events.
 */
export async function writeBatch(client: pg.PoolClient, batch: CommitBatch): Promise<void> {
  for (const write of batch.writes) await apply(client, write);
  await writeIndex(client, batch.index ?? []);
  if (batch.events.length === 0) return;
  // A sequence is taken at insert but seen only at commit: without this lock a reader could
  // see sequence N+1 before N commits, store N+1 as its position and miss N forever. Held
  // from here to commit, so events become visible in sequence order.
  await client.query('SELECT pg_advisory_xact_lock($1)', [EVENT_LOCK]);
  for (const event of batch.events) await append(client, event);
}

async function apply(client: pg.PoolClient, write: AspectWrite): Promise<void> {
  const { urn, aspect, expectedVersion } = write;
  const stale = () => new StaleWriteError(`${urn} ${aspect}: expected version ${expectedVersion}`);
  // The row lock taken here is the compare-and-set: a concurrent writer of the same aspect waits
  // for our commit and then finds a version it did not expect.
  const current = async () =>
    (await client.query<{ version: string }>('SELECT version FROM aspects WHERE urn = $1 AND aspect = $2 FOR UPDATE', [urn, aspect])).rows[0];
  switch (write.kind) {
    case 'put': {
      const sm = write.systemMetadata;
      const value = jsonText(write.value);
      const systemMetadata = jsonText(sm);
      const { time, actor } = sm.aspectModified;
      if (expectedVersion > 0) {
        const row = await current();
        if (!row || Number(row.version) !== expectedVersion) throw stale();
        await client.query(
          `INSERT INTO aspect_history (urn, aspect, version, metadata, system_metadata, created_on, created_by)
           SELECT urn, aspect, version, metadata, system_metadata, created_on, created_by FROM aspects WHERE urn = $1 AND aspect = $2`,
          [urn, aspect],
        );
        await client.query(
          `UPDATE aspects SET metadata = $3, system_metadata = $4, version = $5, created_on = $6, created_by = $7 WHERE urn = $1 AND aspect = $2`,
          [urn, aspect, value, systemMetadata, Number(sm.version), time, actor],
        );
      } else {
        const inserted = await client.query(
          `INSERT INTO aspects (urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (urn, aspect) DO NOTHING`,
          [urn, aspect, write.entityType, value, systemMetadata, Number(sm.version), time, actor],
        );
        if (inserted.rowCount === 0) throw stale();
      }
      break;
    }
    case 'touch': {
      const touched = await client.query('UPDATE aspects SET system_metadata = $3 WHERE urn = $1 AND aspect = $2 AND version = $4', [
        urn, aspect, JSON.stringify(write.systemMetadata), expectedVersion,
      ]);
      if (touched.rowCount === 0) throw stale();
      break;
    }
    case 'remove': {
      const row = await current();
      if (Number(row?.version ?? 0) !== expectedVersion) throw stale();
      await client.query('DELETE FROM aspect_history WHERE urn = $1 AND aspect = $2', [urn, aspect]);
      await client.query('DELETE FROM aspects WHERE urn = $1 AND aspect = $2', [urn, aspect]);
      break;
    }
  }
}

async function append(client: pg.PoolClient, e: ChangeEvent): Promise<void> {
  const json = (value: unknown) => (value === undefined || value === null ? null : jsonText(value));
  await client.query(
    `INSERT INTO change_log (urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [e.urn, e.entityType, e.aspect, e.changeType, e.created.time, e.created.actor, json(e.value), json(e.previousValue), json(e.systemMetadata)],
  );
}
