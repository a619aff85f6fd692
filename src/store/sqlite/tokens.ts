import type Database from 'better-sqlite3';
import type { TokenRecord, TokenStore } from '../store.js';

const TOKEN_COLUMNS = `id, name, role, actor, hash, created_at AS createdAt, created_by AS createdBy, expires_at AS expiresAt,
  last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

/** Access tokens in SQLite's `tokens` table (hashes only), beside the catalog. */
export class SqliteTokens implements TokenStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insertToken: db.prepare(
        `INSERT INTO tokens (id, name, role, actor, hash, created_at, created_by, expires_at, last_used_at, revoked_at)
         VALUES (@id, @name, @role, @actor, @hash, @createdAt, @createdBy, @expiresAt, @lastUsedAt, @revokedAt)`,
      ),
      listTokens: db.prepare<[], TokenRecord>(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id`),
      tokenByHash: db.prepare<[string], TokenRecord>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = ?`),
      revokeToken: db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      touchToken: db.prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?'),
    };
  }

  async insertToken(token: TokenRecord): Promise<void> {
    this.stmt.insertToken.run(token);
  }

  async listTokens(): Promise<TokenRecord[]> {
    return this.stmt.listTokens.all();
  }

  async tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    return this.stmt.tokenByHash.get(hash);
  }

  async revokeToken(id: string, at: number): Promise<boolean> {
    return this.stmt.revokeToken.run(at, id).changes > 0;
  }

  async touchToken(id: string, at: number): Promise<void> {
    this.stmt.touchToken.run(at, id);
  }
}
