import type pg from 'pg';
import { TEXT_COLUMNS, type IndexWrite, type TextColumn } from '../search-types.js';
import { documentVector, pgText } from './text.js';

/**
 * The search index on PostgreSQL, written inside the transaction that writes the aspects:
 * - search_entities: every indexed entity (its key aspect's entries are indexed), numbered in
 *   creation order (relevance ties) and holding its full-text document (text.ts);
 * - keyword values and numbers: a row per (field, value, urn), changed by difference, with a count
 *   per (field, entity type, value), as on SQLite (sqlite/search-index.ts);
 * - search_docs: each aspect's text, joined into the entity's document when one of them changes.
 * Text is `COLLATE "C"`: byte order, SQLite's order. The tables are created in migrate.ts.
 */

const DOC_COLUMNS: Record<TextColumn, string> = {
  name: 'name',
  qualifiedName: 'qualified_name',
  description: 'description',
  fieldPaths: 'field_paths',
  keywords: 'keywords',
};

/** Applies a request's index writes, in order (as SQLite does), inside the caller's transaction. */
export async function writeIndex(client: pg.ClientBase, writes: readonly IndexWrite[]): Promise<void> {
  const texts = new Set<string>();
  const counts = new CountChanges();
  for (const write of writes) {
    const type = entityType(write.urn);
    const isKey = write.aspect === write.keyAspect;
    if (isKey && write.text !== null && (write.text !== undefined || write.addTerms.length > 0)) {
      await client.query('INSERT INTO search_entities (urn, type) VALUES ($1, $2) ON CONFLICT (urn) DO NOTHING', [write.urn, type]);
    }
    await changeValues(client, counts, 'terms', write.urn, type, write.removeTerms, write.addTerms);
    await changeValues(client, counts, 'numbers', write.urn, type, write.removeNumbers, write.addNumbers);
    if (write.text !== undefined) {
      if (write.text === null) await client.query('DELETE FROM search_docs WHERE urn = $1 AND aspect = $2', [write.urn, write.aspect]);
      else {
        const values = TEXT_COLUMNS.map((c) => {
          const text = write.text?.[c];
          return text === undefined || text === null ? null : pgText(text);
        });
        await client.query(
          `INSERT INTO search_docs (urn, aspect, ${TEXT_COLUMNS.map((c) => DOC_COLUMNS[c]).join(', ')}) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (urn, aspect) DO UPDATE SET ${TEXT_COLUMNS.map((c) => `${DOC_COLUMNS[c]} = excluded.${DOC_COLUMNS[c]}`).join(', ')}`,
          [write.urn, write.aspect, ...values],
        );
      }
      texts.add(write.urn);
    }
    // The key's entries going is the entity going (a delete removes its other aspects' entries too).
    if (isKey && write.text === null) await client.query('DELETE FROM search_entities WHERE urn = $1', [write.urn]);
  }
  // In URN order: two writers locking the same entities take them in the same order (no deadlock).
  for (const urn of [...texts].sort()) await rebuildDocument(client, urn);
  await counts.apply(client);
}

/** Empties the index (to rebuild it), inside the caller's transaction. */
export async function clearIndex(client: pg.ClientBase): Promise<void> {
  await client.query('TRUNCATE search_entities, search_terms, search_numbers, search_term_counts, search_number_counts, search_docs');
}

/** Removes then adds an entity's values of a table; what actually went or came changes the counts. */
async function changeValues(
  client: pg.ClientBase,
  counts: CountChanges,
  kind: 'terms' | 'numbers',
  urn: string,
  type: string,
  remove: ReadonlyArray<[string, string | number]>,
  add: ReadonlyArray<[string, string | number]>,
): Promise<void> {
  const table = `search_${kind}`;
  const cast = kind === 'terms' ? 'text[]' : 'float8[]';
  if (remove.length > 0) {
    const gone = await client.query<{ field: string; value: string | number }>(
      `DELETE FROM ${table} t USING unnest($1::text[], $2::${cast}) AS x(field, value)
       WHERE t.field = x.field AND t.value = x.value AND t.urn = $3 RETURNING t.field, t.value`,
      [...columns(remove), urn],
    );
    counts.change(kind, type, gone.rows, -1);
  }
  if (add.length > 0) {
    const added = await client.query<{ field: string; value: string | number }>(
      `INSERT INTO ${table} (field, value, urn) SELECT DISTINCT x.field, x.value, $3 FROM unnest($1::text[], $2::${cast}) AS x(field, value)
       ON CONFLICT DO NOTHING RETURNING field, value`,
      [...columns(add), urn],
    );
    counts.change(kind, type, added.rows, 1);
  }
}

/**
 * A request's changes to the per-value counts, applied last, in one statement per table, in
 * (field, type, value) order. Counts of common values (a platform, a popular tag) are rows every
 * writer updates: updated as they came, two requests took them in different orders and deadlocked
 * (a second each to detect, then a retry), which stalled writers under load.
 */
class CountChanges {
  private readonly deltas = { terms: new Map<string, CountDelta>(), numbers: new Map<string, CountDelta>() };

  change(kind: 'terms' | 'numbers', type: string, rows: ReadonlyArray<{ field: string; value: string | number }>, by: number): void {
    const deltas = this.deltas[kind];
    for (const { field, value } of rows) {
      const key = `${field}\u0000${type}\u0000${value}`;
      const delta = deltas.get(key);
      if (delta) delta.n += by;
      else deltas.set(key, { field, type, value, n: by });
    }
  }

  async apply(client: pg.ClientBase): Promise<void> {
    for (const kind of ['terms', 'numbers'] as const) {
      const rows = [...this.deltas[kind].values()].filter((d) => d.n !== 0).sort(byKey);
      if (rows.length === 0) continue;
      const table = kind === 'terms' ? 'search_term_counts' : 'search_number_counts';
      await client.query(
        `INSERT INTO ${table} (field, type, value, n)
         SELECT * FROM unnest($1::text[], $2::text[], $3::${kind === 'terms' ? 'text[]' : 'float8[]'}, $4::bigint[])
         ON CONFLICT (field, type, value) DO UPDATE SET n = ${table}.n + excluded.n`,
        [rows.map((r) => r.field), rows.map((r) => r.type), rows.map((r) => r.value), rows.map((r) => r.n)],
      );
    }
  }
}

interface CountDelta {
  field: string;
  type: string;
  value: string | number;
  n: number;
}

/** The order in which count rows are locked: the same in every transaction. */
function byKey(a: CountDelta, b: CountDelta): number {
  if (a.field !== b.field) return a.field < b.field ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  if (a.value === b.value) return 0;
  return a.value < b.value ? -1 : 1;
}

/** (field, value) pairs as the two arrays unnest() takes. */
function columns(pairs: ReadonlyArray<[string, string | number]>): [string[], Array<string | number>] {
  return [pairs.map(([field]) => pgText(field)), pairs.map(([, value]) => (typeof value === 'string' ? pgText(value) : value))];
}

/** An entity's document anew from its aspects' texts (each column joined in aspect order). */
async function rebuildDocument(client: pg.ClientBase, urn: string): Promise<void> {
  // Another replica may be writing another aspect's text of this entity: take the entity's row
  // first, so the texts read next include what that writer committed (READ COMMITTED reads
  // anew per statement). Reading before the lock let the later writer overwrite the document
  // without the earlier one's text.
  await client.query('SELECT 1 FROM search_entities WHERE urn = $1 FOR UPDATE', [urn]);
  const { rows } = await client.query<Record<string, string | null>>(
    `SELECT ${TEXT_COLUMNS.map((c) => DOC_COLUMNS[c]).join(', ')} FROM search_docs WHERE urn = $1 ORDER BY aspect`,
    [urn],
  );
  const columns = Object.fromEntries(
    TEXT_COLUMNS.map((c) => [c, rows.map((r) => r[DOC_COLUMNS[c]]).filter((t): t is string => t !== null).join('\n')]),
  ) as Record<TextColumn, string>;
  await client.query('UPDATE search_entities SET doc = $2::tsvector WHERE urn = $1', [urn, documentVector(columns)]);
}

/** `urn:li:<type>:…` → `<type>`. */
export function entityType(urn: string): string {
  return urn.slice(7, urn.indexOf(':', 7));
}
