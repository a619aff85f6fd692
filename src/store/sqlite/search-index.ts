import type Database from 'better-sqlite3';
import { TEXT_COLUMNS, type IndexWrite, type TextColumn } from '../search-types.js';

/**
 * Writes the search index, inside the transaction that writes the aspects (SqliteWriter calls it):
 * - keyword values and numbers: a row per (field, value, urn), changed by difference (a field by
 *   its number in search_fields), and a count
 *   per (field, entity type, value), so that single-valued fields are counted without a scan;
 * - full text: one FTS document per entity (its rowid the entity's key aspect row id, stable for
 *   the entity's life), joined from per-aspect texts kept in search_docs: a search for several
 *   words finds them across aspects with one MATCH, and counts each entity once. The table is
 *   contentless: a document is removed with the text it was indexed with, joined again from
 *   search_docs as they were before the change. The `type` column holds the entity type's word
 *   (typeWord), and search_types counts the documents of each type (see Scope.match).
 */
/** Index rows written between two yields of a step (SqliteWriter's slicing). */
const ROWS_PER_STEP = 32;

export class SqliteIndexWriter {
  private readonly stmt;
  /** Field numbers (search_fields) by name; numbers never change once committed. */
  private readonly fields = new Map<string, number>();
  /**
   * The transaction's count changes, by table, field, type and value, written once each at its
   * end (writeCounts): a group of writes moves a common value's count (a platform, a tier) once,
   * not once per entity, and changes that cancel out write nothing.
   */
  private readonly counts = new Map<string, { statement: Database.Statement; field: number; type: string; value: string | number; delta: number }>();
  /** The same for the documents of each entity type (search_types). */
  private readonly documents = new Map<string, number>();

  constructor(db: Database.Database) {
    this.stmt = {
      fieldId: db.prepare<[string], number>('SELECT id FROM search_fields WHERE name = ?').pluck(),
      fieldInsert: db.prepare<[string]>('INSERT INTO search_fields (name) VALUES (?)'),
      entityId: db.prepare<[string, string], number>('SELECT id FROM aspects WHERE urn = ? AND aspect = ?').pluck(),
      termInsert: db.prepare('INSERT OR IGNORE INTO search_terms (field, value, urn) VALUES (?, ?, ?)'),
      termDelete: db.prepare('DELETE FROM search_terms WHERE field = ? AND value = ? AND urn = ?'),
      termCount: db.prepare(
        `INSERT INTO search_term_counts (field, type, value, n) VALUES (?, ?, ?, ?)
         ON CONFLICT (field, type, value) DO UPDATE SET n = n + excluded.n`,
      ),
      numberInsert: db.prepare('INSERT OR IGNORE INTO search_numbers (field, value, urn) VALUES (?, ?, ?)'),
      numberDelete: db.prepare('DELETE FROM search_numbers WHERE field = ? AND value = ? AND urn = ?'),
      numberCount: db.prepare(
        `INSERT INTO search_number_counts (field, type, value, n) VALUES (?, ?, ?, ?)
         ON CONFLICT (field, type, value) DO UPDATE SET n = n + excluded.n`,
      ),
      docUpsert: db.prepare(
        `INSERT OR REPLACE INTO search_docs (entity, aspect, name, qualifiedName, description, fieldPaths, keywords) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      docDelete: db.prepare('DELETE FROM search_docs WHERE entity = ? AND aspect = ?'),
      docsOf: db.prepare<[number], AspectText>(`SELECT aspect, ${TEXT_COLUMNS.join(', ')} FROM search_docs WHERE entity = ? ORDER BY aspect`),
      textDelete: db.prepare(
        `INSERT INTO search_text (search_text, rowid, type, ${TEXT_COLUMNS.join(', ')}) VALUES ('delete', ?, ?, ${TEXT_COLUMNS.map(() => '?').join(', ')})`,
      ),
      textInsert: db.prepare(`INSERT INTO search_text (rowid, type, ${TEXT_COLUMNS.join(', ')}) VALUES (?, ?, ${TEXT_COLUMNS.map(() => '?').join(', ')})`),
      typeCount: db.prepare(
        `INSERT INTO search_types (type, documents) VALUES (?, ?) ON CONFLICT (type) DO UPDATE SET documents = documents + excluded.documents`,
      ),
    };
  }

  /** A field's number, numbering a new field (in the commit's transaction: see rolledBack). */
  private field(name: string): number {
    let id = this.fields.get(name) ?? this.stmt.fieldId.get(name);
    if (id === undefined) id = Number(this.stmt.fieldInsert.run(name).lastInsertRowid);
    this.fields.set(name, id);
    return id;
  }

  /** After a rollback: numbers given in it were not kept (another field may get them), nor its count changes. */
  rolledBack(): void {
    this.fields.clear();
    this.counts.clear();
    this.documents.clear();
  }

  /** At the end of the transaction: each count that moved, moved once. */
  *writeCounts(): Generator<void> {
    for (const { statement, field, type, value, delta } of this.counts.values()) {
      if (delta !== 0) statement.run(field, type, value, delta);
      yield;
    }
    this.counts.clear();
    for (const [type, delta] of this.documents) if (delta !== 0) this.stmt.typeCount.run(type, delta);
    this.documents.clear();
  }

  private count(statement: Database.Statement, field: number, type: string, value: string | number, delta: 1 | -1): void {
    // Terms are strings and numbers numbers: the value's type tells the two tables apart.
    const key = `${typeof value}\u0000${field}\u0000${type}\u0000${value}`;
    const entry = this.counts.get(key);
    if (entry) entry.delta += delta;
    else this.counts.set(key, { statement, field, type, value, delta });
  }

  /** Deletes or inserts an entity's (field, value) rows; each row that changed moves its value's count by `delta`. */
  private *change(
    pairs: ReadonlyArray<[string, string | number]>,
    urn: string,
    type: string,
    row: Database.Statement,
    count: Database.Statement,
    delta: 1 | -1,
  ): Generator<void> {
    for (let i = 0; i < pairs.length; i++) {
      const [name, value] = pairs[i];
      const field = this.field(name);
      if (row.run(field, value, urn).changes > 0) this.count(count, field, type, value, delta);
      // A unit of work is a few rows: resuming the generators per row cost more than the row.
      if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    }
  }

  /**
   * Before the aspect writes: the ids of entities whose text changes (a deleted entity's id goes
   * with its key row). A generator, as write() is: it yields after each unit of work (see SqliteWriter).
   */
  *entityIds(index: readonly IndexWrite[], ids: Map<string, number>): Generator<void> {
    for (const entry of index) {
      if (entry.text === undefined || ids.has(entry.urn)) continue;
      const id = this.stmt.entityId.get(entry.urn, entry.keyAspect);
      if (id !== undefined) ids.set(entry.urn, id);
      yield;
    }
  }

  /** After the aspect writes: the index entries, then the full-text documents of the entities whose text changed. */
  *write(index: readonly IndexWrite[], idsBefore: Map<string, number>): Generator<void> {
    /** Entities whose text changes: their aspects' texts before and after, by aspect. */
    const changed = new Map<number, { urn: string; before: AspectText[]; after: Map<string, AspectText> }>();
    for (const entry of index) {
      yield;
      const { urn } = entry;
      const type = entityType(urn);
      yield* this.change(entry.removeTerms, urn, type, this.stmt.termDelete, this.stmt.termCount, -1);
      yield* this.change(entry.addTerms, urn, type, this.stmt.termInsert, this.stmt.termCount, 1);
      yield* this.change(entry.removeNumbers, urn, type, this.stmt.numberDelete, this.stmt.numberCount, -1);
      yield* this.change(entry.addNumbers, urn, type, this.stmt.numberInsert, this.stmt.numberCount, 1);
      if (entry.text === undefined) continue;
      const id = idsBefore.get(entry.urn) ?? this.stmt.entityId.get(entry.urn, entry.keyAspect);
      if (id === undefined) continue;
      let entity = changed.get(id);
      if (!entity) {
        const before = this.stmt.docsOf.all(id);
        changed.set(id, (entity = { urn: entry.urn, before, after: new Map(before.map((t) => [t.aspect, t])) }));
      }
      if (entry.text === null) {
        this.stmt.docDelete.run(id, entry.aspect);
        entity.after.delete(entry.aspect);
      } else {
        const text = { aspect: entry.aspect, ...Object.fromEntries(TEXT_COLUMNS.map((c) => [c, entry.text?.[c] ?? null])) } as AspectText;
        this.stmt.docUpsert.run(id, entry.aspect, ...TEXT_COLUMNS.map((c) => text[c]));
        entity.after.set(entry.aspect, text);
      }
    }
    for (const [id, { urn, before, after }] of changed) {
      yield;
      const [old, next] = [document(before), document([...after.values()].sort((a, b) => (a.aspect < b.aspect ? -1 : 1)))];
      if (JSON.stringify(old) === JSON.stringify(next)) continue;
      const type = entityType(urn);
      if (old) this.stmt.textDelete.run(id, typeWord(type), ...old);
      if (next) this.stmt.textInsert.run(id, typeWord(type), ...next);
      if (!old !== !next) this.documents.set(type, (this.documents.get(type) ?? 0) + (next ? 1 : -1));
    }
  }
}

/**
 * An entity type as the one word of a document's `type` column: behind U+E000 (a private-use
 * character, a letter to the tokenizer), so that no free word is a prefix of it. "data" as a free
 * word read the postings of "dataset" in the type of every dataset before its column was tested.
 */
export function typeWord(type: string): string {
  return `\u{E000}${type}`;
}

/** One aspect's text, by column. */
type AspectText = { aspect: string } & Record<TextColumn, string | null>;

/** An entity's full-text document by column, its aspects' texts joined in aspect order (undefined: none). */
function document(parts: readonly AspectText[]): Array<string | null> | undefined {
  if (parts.length === 0) return undefined;
  return TEXT_COLUMNS.map((c) => parts.map((p) => p[c]).filter((t) => t !== null).join('\n') || null);
}

/** `urn:li:<type>:…` → `<type>`. */
function entityType(urn: string): string {
  return urn.slice(7, urn.indexOf(':', 7));
}
