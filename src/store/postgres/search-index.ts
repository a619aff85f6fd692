import type pg from 'pg';
import { TEXT_COLUMNS, type IndexWrite, type TextColumn } from '../search-types.js';
import { Pacer } from '../../pace.js';
import { documentVector, pgText } from './text.js';
import { prepared } from './prepared.js';
import { SERIAL_LOCK, WriteStatement } from './write-statement.js';

/**
 * The search index on PostgreSQL, written inside the transaction that writes the aspects:
 * - search_entities: every indexed entity (its key aspect's entries are indexed), numbered in
 *   creation order (relevance ties) and holding its full-text document (text.ts);
 * - keyword values and numbers: a row per (field, value, urn), changed by difference;
 * - counts of entities per (field, type, value) and per type, moved by the rows each write really
 *   deleted or inserted, summed per statement, after the serial lock (migration 5 says why);
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

/**
 * Applies index writes inside the caller's transaction, in three statements: the entities'
 * rows locked, their texts read, then every change in one statement (writer.ts does the same
 * for a group, its locks taken with the aspects').
 */
export async function writeIndex(client: pg.ClientBase, writes: readonly IndexWrite[]): Promise<void> {
  const plan = planIndex(writes);
  await lockEntities(client, plan.texts);
  const statement = new WriteStatement();
  await addIndexWrites(client, statement, plan);
  await statement.run(client);
}

/**
 * Locks the rows of entities whose documents are rebuilt, in URN order (as every writer does:
 * no deadlock), before their texts are read: another replica may be writing another aspect's
 * text of the same entity, and READ COMMITTED reads anew per statement, so the texts read next
 * include what it committed. Read before the lock, the later writer overwrote the document
 * without the earlier one's text.
 */
async function lockEntities(client: pg.ClientBase, urns: readonly string[]): Promise<void> {
  if (urns.length > 0) await client.query(prepared('SELECT 1 FROM search_entities WHERE urn = ANY($1::text[]) ORDER BY urn FOR UPDATE', [urns]));
}

/**
 * Adds a plan's changes to `statement`, each table's rows in one part. The documents to rebuild
 * are computed first, from the texts stored (read now: the entities' rows must be locked) and the
 * plan's. An entity deleted and made again in the plan is deleted at once, in a statement of its
 * own (the parts cannot change one row twice).
 */
export async function addIndexWrites(client: pg.ClientBase, statement: WriteStatement, plan: IndexPlan): Promise<void> {
  const documents = plan.texts.length > 0 ? await rebuiltDocuments(client, plan) : new Map<string, string>();
  const gone = new Set(plan.entitiesGone);
  const again = plan.entitiesNew.filter((urn) => gone.has(urn));
  const typesGone: string[] = [];
  if (again.length > 0) {
    const { rows } = await client.query<{ type: string }>('DELETE FROM search_entities WHERE urn = ANY($1::text[]) RETURNING type', [again]);
    typesGone.push(...rows.map((r) => r.type));
  }
  const deleted = plan.entitiesGone.filter((urn) => !again.includes(urn));
  const entities: string[] = typesGone.length > 0 ? [`SELECT unnest(${statement.param(typesGone, 'text[]')}) AS type, -1 AS d`] : [];
  if (deleted.length > 0) {
    statement.add('entities_gone', `DELETE FROM search_entities WHERE urn = ANY(${statement.param(deleted, 'text[]')}) RETURNING type`);
    entities.push('SELECT type, -1 AS d FROM entities_gone');
  }
  if (plan.entitiesNew.length > 0) {
    // In the writes' order: ids number entities in creation order (relevance ties).
    statement.add(
      'entities_new',
      `INSERT INTO search_entities (urn, type, doc)
       SELECT urn, type, doc::tsvector FROM unnest(${statement.param(plan.entitiesNew, 'text[]')}, ${statement.param(plan.entitiesNew.map(entityType), 'text[]')},
         ${statement.param(plan.entitiesNew.map((urn) => documents.get(urn) ?? ''), 'text[]')}) WITH ORDINALITY AS x(urn, type, doc, n)
       ORDER BY n ON CONFLICT (urn) DO NOTHING RETURNING type`,
    );
    entities.push('SELECT type, 1 AS d FROM entities_new');
  }
  addCounts(statement, 'search_type_counts', { type: 'x.type' }, entities);
  // An entity inserted above is not seen here (one snapshot): it was inserted with its document.
  const rebuilt = [...documents].filter(([urn]) => !gone.has(urn));
  if (rebuilt.length > 0) {
    statement.add(
      'documents',
      `UPDATE search_entities e SET doc = x.doc::tsvector
         FROM unnest(${statement.param(rebuilt.map(([urn]) => urn), 'text[]')}, ${statement.param(rebuilt.map(([, doc]) => doc), 'text[]')}) AS x(urn, doc)
        WHERE e.urn = x.urn`,
    );
  }
  for (const kind of ['term', 'number'] as const) {
    const cast = kind === 'term' ? 'text[]' : 'float8[]';
    const rows = (list: ReadonlyArray<[string, string | number, string]>) => {
      const [fields, values, urns] = columns(list);
      return `unnest(${statement.param(fields, 'text[]')}, ${statement.param(values, cast)}, ${statement.param(urns, 'text[]')})`;
    };
    const { gone: removed, added } = plan[`${kind}s`];
    // The rows deleted and inserted (RETURNING: what was there, not what was asked) move the counts.
    const moved: string[] = [];
    if (removed.length > 0) {
      statement.add(
        `${kind}s_gone`,
        `DELETE FROM search_${kind}s t USING ${rows(removed)} AS x(field, value, urn)
          WHERE t.field = x.field AND t.value = x.value AND t.urn = x.urn RETURNING t.field, t.value, t.urn`,
      );
      moved.push(`SELECT field, value, urn, -1 AS d FROM ${kind}s_gone`);
    }
    if (added.length > 0) {
      statement.add(`${kind}s_new`, `INSERT INTO search_${kind}s (field, value, urn) SELECT * FROM ${rows(added)} ON CONFLICT DO NOTHING RETURNING field, value, urn`);
      moved.push(`SELECT field, value, urn, 1 AS d FROM ${kind}s_new`);
    }
    addCounts(statement, `search_${kind}_counts`, { field: 'x.field', type: "split_part(x.urn, ':', 3)", value: 'x.value' }, moved);
  }
  const docsGone = plan.docs.filter((d) => d.text === null);
  if (docsGone.length > 0) {
    statement.add(
      'texts_gone',
      `DELETE FROM search_docs d USING unnest(${statement.param(docsGone.map((d) => d.urn), 'text[]')}, ${statement.param(docsGone.map((d) => d.aspect), 'text[]')}) AS x(urn, aspect)
        WHERE d.urn = x.urn AND d.aspect = x.aspect`,
    );
  }
  const docsSet = plan.docs.filter((d) => d.text !== null);
  if (docsSet.length > 0) {
    const names = TEXT_COLUMNS.map((c) => DOC_COLUMNS[c]);
    const texts = TEXT_COLUMNS.map((c) => statement.param(docsSet.map((d) => columnText(d.text, c)), 'text[]'));
    statement.add(
      'texts_new',
      `INSERT INTO search_docs (urn, aspect, ${names.join(', ')})
       SELECT * FROM unnest(${statement.param(docsSet.map((d) => d.urn), 'text[]')}, ${statement.param(docsSet.map((d) => d.aspect), 'text[]')}, ${texts.join(', ')})
       ON CONFLICT (urn, aspect) DO UPDATE SET ${names.map((n) => `${n} = excluded.${n}`).join(', ')}`,
    );
  }
}

/**
 * Moves a count table's rows by the changes `sources` select (each row a `d` of +1 or -1 and the
 * columns `key` reads), summed per key, after the serial lock: only the lock's holder touches a
 * count row, so no writer waits for one while holding a lock another waits for.
 */
function addCounts(statement: WriteStatement, table: string, key: Record<string, string>, sources: readonly string[]): void {
  if (sources.length === 0) return;
  const columns = Object.keys(key);
  statement.add(
    `${table}_moved`,
    `INSERT INTO ${table} AS c (${columns.join(', ')}, n)
     SELECT ${Object.values(key).join(', ')}, sum(x.d) FROM (${sources.join(' UNION ALL ')}) AS x CROSS JOIN ${SERIAL_LOCK}
      GROUP BY ${columns.map((_, i) => i + 1).join(', ')} HAVING sum(x.d) <> 0
     ON CONFLICT (${columns.join(', ')}) DO UPDATE SET n = c.n + excluded.n`,
  );
}

/** A column of an aspect's text as stored (PostgreSQL text), or null. */
function columnText(text: Partial<Record<TextColumn, string>> | null, column: TextColumn): string | null {
  const value = text?.[column];
  return value === undefined || value === null ? null : pgText(value);
}

/** What a list of index writes leaves, each row once: the last change to it wins, as applied in order. */
export interface IndexPlan {
  /** Entities whose key's entries went (deleted first: one that comes back is numbered anew). */
  entitiesGone: string[];
  /** Entities whose key's entries are there at the end, in the order they came. */
  entitiesNew: string[];
  terms: { gone: Array<[string, string, string]>; added: Array<[string, string, string]> };
  numbers: { gone: Array<[string, number, string]>; added: Array<[string, number, string]> };
  /** Each aspect's text at the end: null when it goes. */
  docs: Array<{ urn: string; aspect: string; text: Partial<Record<TextColumn, string>> | null }>;
  /** Entities whose document is rebuilt, in URN order. */
  texts: string[];
}

export function planIndex(writes: readonly IndexWrite[]): IndexPlan {
  const entities = new Map<string, { gone: boolean; present: boolean }>();
  const terms = new Map<string, { row: [string, string, string]; present: boolean }>();
  const numbers = new Map<string, { row: [string, number, string]; present: boolean }>();
  const docs = new Map<string, IndexPlan['docs'][number]>();
  const texts = new Set<string>();
  const entity = (urn: string) => entities.get(urn) ?? entities.set(urn, { gone: false, present: false }).get(urn)!;
  const change = <V extends string | number>(
    rows: Map<string, { row: [string, V, string]; present: boolean }>,
    urn: string,
    pairs: ReadonlyArray<[string, V]>,
    present: boolean,
  ) => {
    for (const [field, value] of pairs) {
      const key = `${field}\u0000${typeof value}\u0000${value}\u0000${urn}`;
      const entry = rows.get(key);
      if (entry) entry.present = present;
      else rows.set(key, { row: [field, value, urn], present });
    }
  };
  for (const write of writes) {
    const isKey = write.aspect === write.keyAspect;
    if (isKey && write.text !== null && (write.text !== undefined || write.addTerms.length > 0)) entity(write.urn).present = true;
    change(terms, write.urn, write.removeTerms, false);
    change(terms, write.urn, write.addTerms, true);
    change(numbers, write.urn, write.removeNumbers, false);
    change(numbers, write.urn, write.addNumbers, true);
    if (write.text !== undefined) {
      docs.set(`${write.urn}\u0000${write.aspect}`, { urn: write.urn, aspect: write.aspect, text: write.text });
      texts.add(write.urn);
    }
    // The key's entries going is the entity going (a delete removes its other aspects' entries too).
    if (isKey && write.text === null) Object.assign(entity(write.urn), { gone: true, present: false });
  }
  const split = <R>(rows: Map<string, { row: R; present: boolean }>) => ({
    gone: [...rows.values()].filter((r) => !r.present).map((r) => r.row),
    added: [...rows.values()].filter((r) => r.present).map((r) => r.row),
  });
  return {
    entitiesGone: [...entities].filter(([, e]) => e.gone).map(([urn]) => urn),
    entitiesNew: [...entities].filter(([, e]) => e.present).map(([urn]) => urn),
    terms: split(terms),
    numbers: split(numbers),
    docs: [...docs.values()],
    texts: [...texts].sort(),
  };
}

/** Empties the index (to rebuild it), inside the caller's transaction. */
export async function clearIndex(client: pg.ClientBase): Promise<void> {
  await client.query('TRUNCATE search_entities, search_terms, search_numbers, search_docs, search_term_counts, search_number_counts, search_type_counts');
}

/** (field, value, urn) rows as the three arrays unnest() takes. */
function columns(rows: ReadonlyArray<[string, string | number, string]>): [string[], Array<string | number>, string[]] {
  return [rows.map(([field]) => pgText(field)), rows.map(([, value]) => (typeof value === 'string' ? pgText(value) : value)), rows.map(([, , urn]) => urn)];
}

/**
 * The plan's entities' documents anew (tsvector literals): each column joined from the entity's
 * aspects' texts in aspect order, the texts stored overlaid with the plan's. The entities' rows
 * must be locked (lockEntities).
 */
async function rebuiltDocuments(client: pg.ClientBase, plan: IndexPlan): Promise<Map<string, string>> {
  const { rows } = await client.query<Record<string, string | null>>(
    prepared(`SELECT urn, aspect, ${TEXT_COLUMNS.map((c) => DOC_COLUMNS[c]).join(', ')} FROM search_docs WHERE urn = ANY($1::text[])`, [plan.texts]),
  );
  const texts = new Map<string, Map<string, Array<string | null>>>(plan.texts.map((urn) => [urn, new Map()]));
  for (const row of rows) texts.get(row.urn!)?.set(row.aspect!, TEXT_COLUMNS.map((c) => row[DOC_COLUMNS[c]]));
  for (const { urn, aspect, text } of plan.docs) {
    const aspects = texts.get(urn)!;
    if (text === null) aspects.delete(aspect);
    else aspects.set(aspect, TEXT_COLUMNS.map((c) => columnText(text, c)));
  }
  const documents = new Map<string, string>();
  // A group may rebuild thousands of documents: the event loop goes on between them.
  const pacer = new Pacer();
  for (const [urn, aspects] of texts) {
    // Byte order of the names, as the column's COLLATE "C" sorts them.
    const ordered = [...aspects].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map(([, columns]) => columns);
    const columns = Object.fromEntries(TEXT_COLUMNS.map((c, i) => [c, ordered.map((t) => t[i]).filter((t): t is string => t !== null).join('\n')]));
    documents.set(urn, documentVector(columns));
    await pacer.pace();
  }
  return documents;
}

/** `urn:li:<type>:…` → `<type>`. */
export function entityType(urn: string): string {
  return urn.slice(7, urn.indexOf(':', 7));
}
