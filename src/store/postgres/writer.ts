import type pg from 'pg';
import { jsonText } from '../../json.js';
import { StaleWriteError, type AspectPut, type AspectWrite, type ChangeEvent, type CommitBatch } from '../store.js';
import { addEdgeWrites } from './graph.js';
import { addIndexWrites, planIndex } from './search-index.js';
import { prepared } from './prepared.js';
import { addPointWrites, removePoints } from './timeseries.js';
import { SERIAL_LOCK, WriteStatement } from './write-statement.js';

/**
 * A write that could not be checked under lock (an aspect another process inserted after the
 * check found none): the transaction is rolled back; a group's batches are retried alone, and a
 * batch alone lost its compare-and-set.
 */
export class GroupConflict extends StaleWriteError {
  override name = 'GroupConflict';
}

/**
 * Writes a group of batches inside the caller's transaction, in three statements whatever the
 * group's size (a round trip costs more here than the work it carries):
 * 1. the rows of every aspect written are locked in key order (no deadlock with another writer),
 *    with those of the entities whose full-text documents change; each batch's expected versions
 *    are checked: a batch that lost its compare-and-set is left out, and its entry in the result
 *    is a StaleWriteError;
 * 2. the stored texts of those entities are read (search-index.ts rebuilds their documents);
 * 3. one statement writes the other batches' aspects, search-index rows and events.
 * The batches must not share entities (PostgresGroupCommit makes groups that way), except a
 * group of one, whose writes may come back to the same aspect: each write after the first to an
 * aspect goes in a statement of its own, before the last.
 */
export async function writeGroup(client: pg.ClientBase, batches: readonly CommitBatch[]): Promise<Array<StaleWriteError | undefined>> {
  // The entities whose documents change: their rows are locked with the aspects' (in URN order).
  const documents = [...new Set(batches.flatMap((b) => (b.index ?? []).filter((w) => w.text !== undefined).map((w) => w.urn)))];
  const versions = await lockRows(client, batches, documents);
  const outcomes = batches.map((batch) => checkVersions(batch, versions));
  const kept = batches.filter((_, i) => outcomes[i] === undefined);
  if (kept.length === 0) return outcomes;
  await removePoints(client, kept.flatMap((b) => b.pointRemovals ?? []));
  const rounds = inRounds(kept.flatMap((b) => b.writes));
  for (const round of rounds.slice(0, -1)) {
    const statement = new WriteStatement();
    addAspectWrites(statement, round);
    checkInserted(round, await statement.run(client));
  }
  const statement = new WriteStatement();
  const last = rounds.at(-1) ?? [];
  addAspectWrites(statement, last);
  await addIndexWrites(client, statement, planIndex(kept.flatMap((b) => b.index ?? [])));
  addEvents(statement, kept.flatMap((b) => b.events));
  addPointWrites(statement, kept.flatMap((b) => b.points ?? []));
  addEdgeWrites(statement, kept.flatMap((b) => b.edges ?? []));
  checkInserted(last, await statement.run(client));
  return outcomes;
}

const keyOf = (urn: string, aspect: string) => `${urn}\u0000${aspect}`;

/**
 * Locks the rows of the aspects the batches write, in (urn, aspect) order, then those of the
 * entities whose documents change, in URN order, and returns the aspects' versions. The aspect
 * row lock is the compare-and-set: a concurrent writer of the same aspect waits for our commit,
 * then finds a version it did not expect.
 */
async function lockRows(client: pg.ClientBase, batches: readonly CommitBatch[], entities: readonly string[]): Promise<Map<string, number>> {
  // The statement orders the locks itself (byte order, as every writer's): the keys go unsorted.
  const keys = new Map<string, [string, string]>();
  for (const batch of batches) for (const { urn, aspect } of batch.writes) keys.set(keyOf(urn, aspect), [urn, aspect]);
  const pairs = [...keys.values()];
  const { rows } = await client.query<{ urn: string; aspect: string | null; version: string | null }>(
    prepared(
      `WITH versions AS (
         SELECT a.urn, a.aspect, a.version FROM aspects a JOIN unnest($1::text[], $2::text[]) AS x(urn, aspect) ON a.urn = x.urn AND a.aspect = x.aspect
          ORDER BY a.urn, a.aspect FOR UPDATE OF a
       ), entities AS (
         SELECT urn FROM search_entities WHERE urn = ANY($3::text[]) ORDER BY urn FOR UPDATE
       )
       SELECT urn, aspect, version FROM versions UNION ALL SELECT urn, NULL, NULL FROM entities`,
      [pairs.map(([urn]) => urn), pairs.map(([, aspect]) => aspect), entities],
    ),
  );
  return new Map(rows.filter((r) => r.aspect !== null).map((r) => [keyOf(r.urn, r.aspect!), Number(r.version)]));
}

/** Whether every write of the batch finds the version it expects, as the writes before it leave them. */
function checkVersions(batch: CommitBatch, stored: ReadonlyMap<string, number>): StaleWriteError | undefined {
  const versions = new Map<string, number>();
  for (const write of batch.writes) {
    const key = keyOf(write.urn, write.aspect);
    const current = versions.get(key) ?? stored.get(key) ?? 0;
    if (current !== write.expectedVersion) return new StaleWriteError(`${write.urn} ${write.aspect}: expected version ${write.expectedVersion}`);
    if (write.kind === 'put') versions.set(key, Number(write.systemMetadata.version));
    else if (write.kind === 'remove') versions.set(key, 0);
  }
  return undefined;
}

/** The writes in rounds where each aspect is written at most once: the first write of each, then the second, … */
function inRounds(writes: readonly AspectWrite[]): AspectWrite[][] {
  const seen = new Map<string, number>();
  const out: AspectWrite[][] = [];
  for (const write of writes) {
    const key = keyOf(write.urn, write.aspect);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (out[round] ??= []).push(write);
  }
  return out;
}

/** One round's writes (at most one per aspect, their versions checked under lock), a part per kind. */
function addAspectWrites(statement: WriteStatement, writes: readonly AspectWrite[]): void {
  const updates = writes.filter((w): w is AspectPut => w.kind === 'put' && w.expectedVersion > 0);
  const inserts = writes.filter((w): w is AspectPut => w.kind === 'put' && w.expectedVersion === 0);
  const touches = writes.filter((w) => w.kind === 'touch');
  const removes = writes.filter((w) => w.kind === 'remove');
  const keys = (list: readonly AspectWrite[]) => `${statement.param(list.map((w) => w.urn), 'text[]')}, ${statement.param(list.map((w) => w.aspect), 'text[]')}`;
  const puts = (list: readonly AspectPut[]) => {
    const p = (values: unknown[], type: string) => statement.param(values, type);
    return [
      statement.jsonTexts(list.map((w) => jsonText(w.value))),
      statement.jsonTexts(list.map((w) => jsonText(w.systemMetadata))),
      p(list.map((w) => Number(w.systemMetadata.version)), 'bigint[]'),
      p(list.map((w) => w.systemMetadata.aspectModified.time), 'bigint[]'),
      p(list.map((w) => w.systemMetadata.aspectModified.actor), 'text[]'),
    ].join(', ');
  };
  if (updates.length > 0) {
    statement.add('updated', `SELECT * FROM unnest(${keys(updates)}, ${puts(updates)}) AS x(urn, aspect, metadata, system_metadata, version, created_on, created_by)`);
    // On the statement's one snapshot, the archive reads each row as it was before the update.
    statement.add(
      'archived',
      `INSERT INTO aspect_history (urn, aspect, version, metadata, system_metadata, created_on, created_by)
       SELECT a.urn, a.aspect, a.version, a.metadata, a.system_metadata, a.created_on, a.created_by FROM aspects a JOIN updated x ON a.urn = x.urn AND a.aspect = x.aspect`,
    );
    statement.add(
      'replaced',
      `UPDATE aspects a SET metadata = x.metadata, system_metadata = x.system_metadata, version = x.version, created_on = x.created_on, created_by = x.created_by
         FROM updated x WHERE a.urn = x.urn AND a.aspect = x.aspect`,
    );
  }
  if (inserts.length > 0) {
    statement.addCounted(
      'inserted',
      `INSERT INTO aspects (urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by)
       SELECT * FROM unnest(${keys(inserts)}, ${statement.param(inserts.map((w) => w.entityType), 'text[]')}, ${puts(inserts)})
       ON CONFLICT (urn, aspect) DO NOTHING RETURNING 1`,
    );
  }
  if (touches.length > 0) {
    const metadata = touches.map((w) => (w.kind === 'touch' ? JSON.stringify(w.systemMetadata) : ''));
    statement.add(
      'touched',
      `UPDATE aspects a SET system_metadata = x.system_metadata FROM unnest(${keys(touches)}, ${statement.jsonTexts(metadata)}) AS x(urn, aspect, system_metadata)
        WHERE a.urn = x.urn AND a.aspect = x.aspect`,
    );
  }
  if (removes.length > 0) {
    statement.add('removed', `SELECT * FROM unnest(${keys(removes)}) AS x(urn, aspect)`);
    statement.add('history_gone', 'DELETE FROM aspect_history h USING removed x WHERE h.urn = x.urn AND h.aspect = x.aspect');
    statement.add('aspects_gone', 'DELETE FROM aspects a USING removed x WHERE a.urn = x.urn AND a.aspect = x.aspect');
  }
}

/** No row was there to lock for an insert that did not happen: another process inserted one since the check. */
function checkInserted(writes: readonly AspectWrite[], counts: Record<string, number>): void {
  const inserts = writes.filter((w) => w.kind === 'put' && w.expectedVersion === 0).length;
  if (inserts > 0 && counts.inserted !== inserts) throw new GroupConflict('an aspect was created concurrently');
}

/**
 * The events, sequences taken in their order. A sequence is taken at insert but seen only at
 * commit: without the serial lock a reader could see sequence N+1 before N commits, store N+1 as
 * its position and miss N forever. The lock is taken before the first sequence and held to
 * commit, so events become visible in sequence order.
 */
function addEvents(statement: WriteStatement, events: readonly ChangeEvent[]): void {
  if (events.length === 0) return;
  const json = (value: unknown) => (value === undefined || value === null ? null : jsonText(value));
  const p = (values: unknown[], type: string) => statement.param(values, type);
  statement.add(
    'logged',
    `INSERT INTO change_log (urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata)
     SELECT e.urn, e.entity_type, e.aspect, e.change_type, e.created_on, e.created_by, e.value, e.previous_value, e.system_metadata
       FROM unnest(${p(events.map((e) => e.urn), 'text[]')}, ${p(events.map((e) => e.entityType), 'text[]')}, ${p(events.map((e) => e.aspect), 'text[]')},
                   ${p(events.map((e) => e.changeType), 'text[]')}, ${p(events.map((e) => e.created.time), 'bigint[]')}, ${p(events.map((e) => e.created.actor), 'text[]')},
                   ${statement.jsonTexts(events.map((e) => json(e.value)))}, ${statement.jsonTexts(events.map((e) => json(e.previousValue)))},
                   ${statement.jsonTexts(events.map((e) => json(e.systemMetadata)))})
            WITH ORDINALITY AS e(urn, entity_type, aspect, change_type, created_on, created_by, value, previous_value, system_metadata, n)
       CROSS JOIN ${SERIAL_LOCK}
      ORDER BY e.n`,
  );
}
