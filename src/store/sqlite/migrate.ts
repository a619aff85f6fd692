import type Database from 'better-sqlite3';

/**
 * SQLite's schema: its migrations, applied in order when the store opens (PRAGMA user_version
 * records how many have run), and the runner that applies them. Append new steps, never edit old ones.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE aspects (
     urn             TEXT    NOT NULL,
     aspect          TEXT    NOT NULL,
     version         INTEGER NOT NULL,  -- 0 = latest, 1..N = earlier values in write order
     entity_type     TEXT    NOT NULL,
     metadata        TEXT    NOT NULL,  -- the aspect value (JSON)
     system_metadata TEXT    NOT NULL,  -- JSON
     sys_version     INTEGER NOT NULL,  -- systemMetadata.version as a number, for compare-and-set
     created_on      INTEGER NOT NULL,
     created_by      TEXT    NOT NULL,
     PRIMARY KEY (urn, aspect, version)
   ) WITHOUT ROWID;
   CREATE INDEX aspects_by_type ON aspects (entity_type, urn) WHERE version = 0;
   CREATE TABLE change_log (
     sequence        INTEGER PRIMARY KEY AUTOINCREMENT,
     urn             TEXT    NOT NULL,
     entity_type     TEXT    NOT NULL,
     aspect          TEXT    NOT NULL,
     change_type     TEXT    NOT NULL,
     created_on      INTEGER NOT NULL,
     created_by      TEXT    NOT NULL,
     value           TEXT,
     previous_value  TEXT,
     system_metadata TEXT
   );`,
  `CREATE INDEX aspects_by_name ON aspects (aspect, urn) WHERE version = 0;`,
  `CREATE TABLE tokens (
     id           TEXT PRIMARY KEY,
     name         TEXT    NOT NULL,
     role         TEXT    NOT NULL,
     actor        TEXT    NOT NULL,
     hash         TEXT    NOT NULL UNIQUE,  -- SHA-256 of the secret; the secret itself is never stored
     created_at   INTEGER NOT NULL,
     created_by   TEXT    NOT NULL,
     expires_at   INTEGER,
     last_used_at INTEGER,
     revoked_at   INTEGER
   );`,
  // Latest values and history apart. History rows are appended in write order (rowid) and
  // chained newest to oldest (aspects.history_id → previous_id → …) instead of indexed by
  // (urn, aspect, version): an index entry per write dirtied one more random page per write, a
  // third of a commit's cost, for lookups of old versions that are rare and walk a short chain.
  `CREATE TABLE aspect_history (
     id              INTEGER PRIMARY KEY,
     previous_id     INTEGER,           -- the value this one replaced, if kept
     urn             TEXT    NOT NULL,
     aspect          TEXT    NOT NULL,
     version         INTEGER NOT NULL,  -- systemMetadata.version of this earlier value
     metadata        TEXT    NOT NULL,
     system_metadata TEXT    NOT NULL,
     created_on      INTEGER NOT NULL,
     created_by      TEXT    NOT NULL
   );
   INSERT INTO aspect_history (id, previous_id, urn, aspect, version, metadata, system_metadata, created_on, created_by)
     SELECT n, CASE WHEN before = urn || char(0) || aspect THEN n - 1 END,
            urn, aspect, version, metadata, system_metadata, created_on, created_by
       FROM (SELECT row_number() OVER w AS n, lag(urn || char(0) || aspect) OVER w AS before, *
               FROM aspects WHERE version > 0 WINDOW w AS (ORDER BY urn, aspect, version));
   CREATE TABLE latest (
     urn             TEXT    NOT NULL,
     aspect          TEXT    NOT NULL,
     entity_type     TEXT    NOT NULL,
     metadata        TEXT    NOT NULL,  -- the aspect value (JSON)
     system_metadata TEXT    NOT NULL,  -- JSON
     version         INTEGER NOT NULL,  -- systemMetadata.version as a number, for compare-and-set
     created_on      INTEGER NOT NULL,
     created_by      TEXT    NOT NULL,
     history_id      INTEGER,           -- the newest earlier value in aspect_history
     PRIMARY KEY (urn, aspect)
   ) WITHOUT ROWID;
   CREATE INDEX migrating_history ON aspect_history (urn, aspect);
   INSERT INTO latest
     SELECT urn, aspect, entity_type, metadata, system_metadata, sys_version, created_on, created_by,
            (SELECT max(h.id) FROM aspect_history h WHERE h.urn = a.urn AND h.aspect = a.aspect)
       FROM aspects a WHERE version = 0;
   DROP INDEX migrating_history;
   DROP TABLE aspects;
   ALTER TABLE latest RENAME TO aspects;
   CREATE INDEX aspects_by_type ON aspects (entity_type, urn);
   CREATE INDEX aspects_by_name ON aspects (aspect, urn);`,
  // Latest values in a rowid table with a unique (urn, aspect) index, instead of a WITHOUT ROWID
  // tree keyed by (urn, aspect): its rows (often over 1 KB) made every new aspect split pages in
  // the middle of the tree, several pages a row; now a new row is appended at the table's end and
  // only the small index entry goes in the middle. Measured on 20k datasets: new aspects inserted
  // 3.4x faster; in-place updates and range reads as fast as before. Entities of a type are listed
  // by their key aspect in aspects_by_name: an index by (entity_type, urn) held an entry per
  // aspect, 17 for a typical dataset, and cost every new aspect one more index insert.
  `CREATE TABLE latest (
     id              INTEGER PRIMARY KEY,
     urn             TEXT    NOT NULL,
     aspect          TEXT    NOT NULL,
     entity_type     TEXT    NOT NULL,
     metadata        TEXT    NOT NULL,  -- the aspect value (JSON)
     system_metadata TEXT    NOT NULL,  -- JSON
     version         INTEGER NOT NULL,  -- systemMetadata.version as a number, for compare-and-set
     created_on      INTEGER NOT NULL,
     created_by      TEXT    NOT NULL,
     history_id      INTEGER            -- the newest earlier value in aspect_history
   );
   INSERT INTO latest (urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by, history_id)
     SELECT urn, aspect, entity_type, metadata, system_metadata, version, created_on, created_by, history_id
       FROM aspects ORDER BY urn, aspect;
   DROP TABLE aspects;
   ALTER TABLE latest RENAME TO aspects;
   CREATE UNIQUE INDEX aspects_key ON aspects (urn, aspect);
   CREATE INDEX aspects_by_name ON aspects (aspect, urn);`,
  // The search index, written in the same transactions as the aspects (see search-index.ts).
  `CREATE TABLE search_terms (
     field TEXT NOT NULL,
     value TEXT NOT NULL,
     urn   TEXT NOT NULL,
     PRIMARY KEY (field, value, urn)
   ) WITHOUT ROWID;
   CREATE INDEX search_terms_by_field ON search_terms (field, urn);
   CREATE TABLE search_numbers (
     field TEXT NOT NULL,
     value REAL NOT NULL,
     urn   TEXT NOT NULL,
     PRIMARY KEY (field, value, urn)
   ) WITHOUT ROWID;
   CREATE INDEX search_numbers_by_field ON search_numbers (field, urn);
   -- How many entities of a type have each value: counts of single-valued fields without scanning.
   CREATE TABLE search_term_counts (
     field TEXT NOT NULL,
     type  TEXT NOT NULL,
     value TEXT NOT NULL,
     n     INTEGER NOT NULL,
     PRIMARY KEY (field, type, value)
   ) WITHOUT ROWID;
   CREATE TABLE search_number_counts (
     field TEXT NOT NULL,
     type  TEXT NOT NULL,
     value REAL NOT NULL,
     n     INTEGER NOT NULL,
     PRIMARY KEY (field, type, value)
   ) WITHOUT ROWID;
   -- Each aspect's text; an entity's full-text document (rowid: its key aspect row's id) joins them.
   CREATE TABLE search_docs (
     entity        INTEGER NOT NULL,
     aspect        TEXT    NOT NULL,
     name          TEXT,
     qualifiedName TEXT,
     description   TEXT,
     fieldPaths    TEXT,
     keywords      TEXT,
     PRIMARY KEY (entity, aspect)
   ) WITHOUT ROWID;
   CREATE VIRTUAL TABLE search_text USING fts5(
     type, name, qualifiedName, description, fieldPaths, keywords,
     content = '', contentless_delete = 1, prefix = '2 3', tokenize = 'unicode61 remove_diacritics 2'
   );
   CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Full text without contentless_delete: a document is removed by FTS5's 'delete' command with
  // the text it was indexed with (rebuilt from search_docs), which goes into the transaction's own
  // new segment; a delete by rowid wrote tombstones into older segments and halved write
  // throughput (13k against 26k document updates/s in a micro-benchmark). No prefix indexes:
  // they tripled the entries per word, for prefixes of 2–3 letters only. The index is rebuilt
  // at start (search_meta's version goes).
  `DROP TABLE search_text;
   CREATE VIRTUAL TABLE search_text USING fts5(
     type, name, qualifiedName, description, fieldPaths, keywords,
     content = '', tokenize = 'unicode61 remove_diacritics 2'
   );
   DELETE FROM search_meta WHERE key = 'version';`,
  // Compact rows (see system-metadata.ts and event-rows.ts): system metadata in columns of what
  // differs from the usual shape, and change-log events that refer to the versions they log
  // (`event`: the event that wrote a version, while it may still be kept), and name their aspect
  // by its row. Existing rows whose
  // system metadata the columns give back byte for byte are converted; existing events keep their
  // values inline, and go with retention.
  `${['aspects', 'aspect_history', 'change_log']
    .map((table) => `ALTER TABLE ${table} ADD COLUMN sm_observed INTEGER;  -- lastObserved, when not created_on
   ALTER TABLE ${table} ADD COLUMN sm_run TEXT;            -- runId, if any
   ALTER TABLE ${table} ADD COLUMN sm_source TEXT;         -- properties.eventSource; NULL: system_metadata holds the JSON
   ALTER TABLE ${table} ADD COLUMN sm_created_on INTEGER;  -- aspectCreated.time, when not created_on
   ALTER TABLE ${table} ADD COLUMN sm_created_by TEXT;     -- aspectCreated.actor, when not created_by`)
    .join('\n')}
   ALTER TABLE aspects ADD COLUMN event INTEGER;
   ALTER TABLE aspect_history ADD COLUMN event INTEGER;
   ALTER TABLE change_log ADD COLUMN version INTEGER;      -- systemMetadata.version, when compact
   ALTER TABLE change_log ADD COLUMN value_of INTEGER;     -- NULL: value inline; 0: the aspects row whose event this is; else aspect_history.id
   ALTER TABLE change_log ADD COLUMN previous_of INTEGER;  -- NULL: previous_value inline; else aspect_history.id
   ALTER TABLE change_log ADD COLUMN aspect_id INTEGER;    -- the aspects row naming urn and aspect (then ''), while it holds the versions
   UPDATE change_log SET version = CAST(json_extract(system_metadata, '$.version') AS INTEGER)
    WHERE json_type(system_metadata, '$.version') = 'text';
   ${['aspects', 'aspect_history', 'change_log']
     .map((table) => `UPDATE ${table} SET
       sm_observed = nullif(json_extract(system_metadata, '$.lastObserved'), created_on),
       sm_run = json_extract(system_metadata, '$.runId'),
       sm_source = json_extract(system_metadata, '$.properties.eventSource'),
       sm_created_on = nullif(json_extract(system_metadata, '$.aspectCreated.time'), created_on),
       sm_created_by = nullif(json_extract(system_metadata, '$.aspectCreated.actor'), created_by)
     WHERE json_valid(system_metadata) AND json_type(system_metadata, '$.properties.eventSource') = 'text' AND version IS NOT NULL;
   UPDATE ${table} SET system_metadata = '' WHERE sm_source IS NOT NULL AND ${compactSystemMetadata8(table)} IS system_metadata;
   UPDATE ${table} SET sm_observed = NULL, sm_run = NULL, sm_source = NULL, sm_created_on = NULL, sm_created_by = NULL
    WHERE system_metadata IS NOT '';`)
     .join('\n   ')}
   UPDATE change_log SET version = NULL WHERE system_metadata IS NOT '';`,
  // Search index fields by number (search-sql.ts FIELD): a structured property's field is its URN,
  // ~45 bytes in every row of it, twice (table and index). Derived data: rebuilt at start.
  `CREATE TABLE search_fields (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
   DROP TABLE search_terms;
   DROP TABLE search_numbers;
   DROP TABLE search_term_counts;
   DROP TABLE search_number_counts;
   CREATE TABLE search_terms (
     field INTEGER NOT NULL,
     value TEXT    NOT NULL,
     urn   TEXT    NOT NULL,
     PRIMARY KEY (field, value, urn)
   ) WITHOUT ROWID;
   CREATE INDEX search_terms_by_field ON search_terms (field, urn);
   CREATE TABLE search_numbers (
     field INTEGER NOT NULL,
     value REAL    NOT NULL,
     urn   TEXT    NOT NULL,
     PRIMARY KEY (field, value, urn)
   ) WITHOUT ROWID;
   CREATE INDEX search_numbers_by_field ON search_numbers (field, urn);
   CREATE TABLE search_term_counts (
     field INTEGER NOT NULL,
     type  TEXT    NOT NULL,
     value TEXT    NOT NULL,
     n     INTEGER NOT NULL,
     PRIMARY KEY (field, type, value)
   ) WITHOUT ROWID;
   CREATE TABLE search_number_counts (
     field INTEGER NOT NULL,
     type  TEXT    NOT NULL,
     value REAL    NOT NULL,
     n     INTEGER NOT NULL,
     PRIMARY KEY (field, type, value)
   ) WITHOUT ROWID;
   DELETE FROM search_docs;
   INSERT INTO search_text (search_text) VALUES ('delete-all');
   DELETE FROM search_meta WHERE key = 'version';`,
  // Full text scoped by type more cheaply (search-index.ts typeWord, search-sql.ts Scope.match):
  // a type's word in the index starts with U+E000, so a free word that begins a type's name
  // ("data") no longer merges the postings of every entity of the type (20 ms over 1M datasets,
  // for 83k matches); and the documents of each type are counted, so that a search of the types
  // that hold most documents leaves the others out (NOT) or tests no type at all, instead of
  // AND-ing a list of postings as long as the catalog. Derived data: rebuilt at start.
  `DROP TABLE search_text;
   CREATE VIRTUAL TABLE search_text USING fts5(
     type, name, qualifiedName, description, fieldPaths, keywords,
     content = '', tokenize = 'unicode61 remove_diacritics 2'
   );
   CREATE TABLE search_types (type TEXT PRIMARY KEY, documents INTEGER NOT NULL) WITHOUT ROWID;
   DELETE FROM search_docs;
   DELETE FROM search_meta WHERE key = 'version';`,
  // Timeseries aspects (timeseries.ts): points appended apart from versioned aspects, keyed as
  // DataHub keys its documents; the key's index answers an entity's latest point and time ranges,
  // the second index a scroll over an aspect and retention (its entries end with the rowid).
  `CREATE TABLE timeseries_points (
     id               INTEGER PRIMARY KEY,
     urn              TEXT    NOT NULL,
     aspect           TEXT    NOT NULL,
     entity_type      TEXT    NOT NULL,
     timestamp_millis INTEGER NOT NULL,
     point_key        TEXT    NOT NULL,  -- messageId, partition and eventGranularity ('' when none)
     value            TEXT    NOT NULL,  -- JSON
     system_metadata  TEXT    NOT NULL,  -- JSON
     created_on       INTEGER NOT NULL,
     created_by       TEXT    NOT NULL
   );
   CREATE UNIQUE INDEX timeseries_points_key ON timeseries_points (urn, aspect, timestamp_millis, point_key);
   CREATE INDEX timeseries_points_by_time ON timeseries_points (aspect, timestamp_millis);`,
  // The graph (graph.ts): an edge per (source, relationship, destination) and aspect naming it,
  // read out of an entity by the key, into it by edges_in, and by relationship type by edges_by_type.
  // Built from the stored aspects at the next start (GraphEdges.ensureBuilt: no version yet).
  `CREATE TABLE edges (
     source           TEXT NOT NULL,
     relationship     TEXT NOT NULL,
     destination      TEXT NOT NULL,
     owner            TEXT NOT NULL,  -- the entity whose aspect names the edge
     aspect           TEXT NOT NULL,
     source_type      TEXT NOT NULL,
     destination_type TEXT NOT NULL,
     properties       TEXT,           -- JSON
     PRIMARY KEY (source, relationship, destination, owner, aspect)
   ) WITHOUT ROWID;
   CREATE INDEX edges_in ON edges (destination, relationship, source);
   CREATE INDEX edges_by_type ON edges (relationship, source, destination);`,
  // Two trees an edge instead of three (graph upkeep was +40% CPU on a lineage write): keyed by
  // relationship first, the key serves scans by type; out of an entity, a read names the
  // relationships (the graph layer names every one when the request does not). `owner` is ''
  // when it is the source, as for every edge but column lineage's: ~60 bytes less in each tree.
  // Derived data: dropped here, drawn again at the next start.
  `DROP TABLE edges;
   CREATE TABLE edges (
     relationship     TEXT NOT NULL,
     source           TEXT NOT NULL,
     destination      TEXT NOT NULL,
     owner            TEXT NOT NULL,  -- the entity whose aspect names the edge; '' when it is the source
     aspect           TEXT NOT NULL,
     source_type      TEXT NOT NULL,
     destination_type TEXT NOT NULL,
     properties       TEXT,           -- JSON
     PRIMARY KEY (relationship, source, destination, owner, aspect)
   ) WITHOUT ROWID;
   CREATE INDEX edges_in ON edges (destination, relationship, source);
   DELETE FROM search_meta WHERE key = 'graph';`,
  // The soft-deleted entities alone (graph.ts): a lineage walk asks of every entity it reaches
  // whether it is one. Through aspects_key each answer was a probe of a 5M-row index and a read of
  // the row's JSON, half of a 100,000-entity closure's time at 1M datasets; this index holds the
  // few removed entities and answers from pages that stay cached.
  `CREATE INDEX aspects_soft_deleted ON aspects (urn) WHERE aspect = 'status' AND json_extract(metadata, '$.removed') = 1;`,
];

/**
 * Step 8's copy of system-metadata.ts's systemMetadataSql (a step must not change when the code
 * does): the JSON text compact columns stand for, compared with the text they would replace.
 */
function compactSystemMetadata8(t: string): string {
  return `('{"version":"' || ${t}.version || '","lastObserved":' || coalesce(${t}.sm_observed, ${t}.created_on)
    || coalesce(',"runId":"' || ${t}.sm_run || '"', '') || ',"properties":{"eventSource":"' || ${t}.sm_source
    || '"},"aspectCreated":{"time":' || coalesce(${t}.sm_created_on, ${t}.created_on) || ',"actor":"' || coalesce(${t}.sm_created_by, ${t}.created_by)
    || '"},"aspectModified":{"time":' || ${t}.created_on || ',"actor":"' || ${t}.created_by || '"}}')`;
}

/** Runs the steps not yet applied, each in a transaction of its own; returns how many ran. */
export function migrate(db: Database.Database): number {
  const done = db.pragma('user_version', { simple: true }) as number;
  for (let i = done; i < SQLITE_MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(SQLITE_MIGRATIONS[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
  return Math.max(0, SQLITE_MIGRATIONS.length - done);
}
