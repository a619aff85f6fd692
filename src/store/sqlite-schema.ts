/**
 * SQLite schema migrations, applied in order; PRAGMA user_version records how many have run.
 * Append new steps, never edit old ones.
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
];
