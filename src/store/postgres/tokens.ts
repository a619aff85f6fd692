import type { TokenRecord, TokenStore } from '../store.js';
import type { StorePool } from './pool.js';
import { pgText } from './text.js';

const TOKEN_COLUMNS = `id, name, role, actor, hash, created_at, created_by, expires_at, last_used_at, revoked_at`;

/** Access tokens in PostgreSQL's `tokens` table (hashes only), beside the catalog. */
export class PostgresTokens implements TokenStore {
  constructor(private readonly db: StorePool) {}

  async insertToken(t: TokenRecord): Promise<void> {
    await this.db.rows(`INSERT INTO tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
      t.id, t.name, t.role, t.actor, t.hash, t.createdAt, t.createdBy, t.expiresAt, t.lastUsedAt, t.revokedAt,
    ]);
  }

  async listTokens(): Promise<TokenRecord[]> {
    return (await this.db.rows<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id COLLATE "C"`)).map(toToken);
  }

  async tokenByHash(hash: string): Promise<TokenRecord | undefined> {
    const rows = await this.db.rows<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE hash = $1`, [hash]);
    return rows[0] && toToken(rows[0]);
  }

  async revokeToken(id: string, at: number): Promise<boolean> {
    return (await this.db.count('UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, pgText(id)])) > 0;
  }

  async touchToken(id: string, at: number): Promise<void> {
    await this.db.rows('UPDATE tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
  }
}

interface TokenRow {
  id: string;
  name: string;
  role: TokenRecord['role'];
  actor: string;
  hash: string;
  created_at: string;
  created_by: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toToken(row: TokenRow): TokenRecord {
  const time = (value: string | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    actor: row.actor,
    hash: row.hash,
    createdAt: Number(row.created_at),
    createdBy: row.created_by,
    expiresAt: time(row.expires_at),
    lastUsedAt: time(row.last_used_at),
    revokedAt: time(row.revoked_at),
  };
}
