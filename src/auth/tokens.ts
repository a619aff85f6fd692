import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors.js';
import type { TokenRecord, TokenStore } from '../store/store.js';
import { ROLES, type Principal, type Role } from './roles.js';

/** A token as shown to clients: everything but the secret and its hash. */
export type TokenInfo = Omit<TokenRecord, 'hash'>;

const PREFIX = 'urnb_';
const NAME = /^[A-Za-z0-9._@-]{1,100}$/;
/** last_used_at is refreshed at most this often per token, so authentication costs no write per request. */
const TOUCH_EVERY_MS = 60_000;
/**
 * Cached lookups are re-read after this long, so a token created or revoked elsewhere (the CLI on
 * the data dir, another replica) takes effect within a second; revoking through this process
 * clears it at once. One lookup per token and second costs nothing measurable.
 */
const CACHE_MS = 800;
/** Longer than any secret urnbase makes (`urnb_` and 43 characters): a longer one is not looked up. */
const MAX_SECRET_CHARS = 256;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Access tokens: opaque random secrets (256 bits, prefixed `urnb_`), stored only as SHA-256
 * hashes. Valid secrets are remembered for a few seconds; revoking clears the entry at once.
 */
export class TokenService {
  /** Recently authenticated secrets (valid ones only), re-checked against the store after CACHE_MS. */
  private readonly recent = new Map<string, { principal: Principal; expiresAt: number | null; until: number }>();
  private readonly touched = new Map<string, number>();
  private readonly envAdminHash?: string;

  constructor(
    private readonly store: TokenStore,
    /** An admin token given by the operator (URNBASE_ADMIN_TOKEN): valid without being stored. */
    envAdminToken?: string,
  ) {
    if (envAdminToken) this.envAdminHash = hashSecret(envAdminToken);
  }

  /** Creates a token; the secret is returned here once and never again. */
  async create(request: { name?: unknown; role?: unknown; expiresInDays?: unknown }, createdBy: string): Promise<{ token: string; info: TokenInfo }> {
    const { name, role, expiresInDays } = request;
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new ValidationError('name must be 1 to 100 letters, digits, ".", "_", "@" or "-"');
    }
    if (typeof role !== 'string' || !ROLES.includes(role as Role)) throw new ValidationError(`role must be one of ${ROLES.join(', ')}`);
    if (expiresInDays !== undefined && (!Number.isInteger(expiresInDays) || (expiresInDays as number) < 1 || (expiresInDays as number) > 3650)) {
      throw new ValidationError('expiresInDays must be a whole number of days from 1 to 3650');
    }
    const now = Date.now();
    const secret = `${PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: TokenRecord = {
      id: randomUUID(),
      name,
      role: role as Role,
      actor: `urn:li:corpuser:${name}`,
      hash: hashSecret(secret),
      createdAt: now,
      createdBy,
      expiresAt: expiresInDays === undefined ? null : now + (expiresInDays as number) * 86_400_000,
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.store.insertToken(record);
    return { token: secret, info: info(record) };
  }

  async list(): Promise<TokenInfo[]> {
    return (await this.store.listTokens()).map(info);
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.store.revokeToken(id, Date.now()))) throw new NotFoundError(`No live token with id ${id}`);
    for (const [secret, entry] of this.recent) if (entry.principal.tokenId === id) this.recent.delete(secret);
  }

  /**
   * The principal of a secret from memory alone: a hit skips hashing and the database, which keeps
   * authentication off the request's cost. `undefined` means "not known here": call authenticate().
   */
  cached(secret: string): Principal | undefined {
    const entry = this.recent.get(secret);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.until <= now || (entry.expiresAt !== null && entry.expiresAt <= now)) return undefined;
    return entry.principal;
  }

  /**
   * Whether a secret may be checked although its address is refused for failing too often: it
   * was valid when last checked here, or it is the operator's admin token. Neither costs a lookup,
   * so an attacker's made-up secrets never reach the store, while clients known to be good go on.
   */
  vouchedFor(secret: string): boolean {
    return this.recent.has(secret) || (this.envAdminHash !== undefined && hashSecret(secret) === this.envAdminHash);
  }

  /** The principal of a valid secret; undefined for an unknown, expired or revoked one. */
  async authenticate(secret: string): Promise<Principal | undefined> {
    const hash = hashSecret(secret);
    const now = Date.now();
    if (hash === this.envAdminHash) {
      const principal: Principal = { actor: 'urn:li:corpuser:admin', role: 'admin' };
      this.remember(secret, principal, null, now);
      return principal;
    }
    // Only secrets of our own making can be stored ones: anything else costs no lookup.
    if (!secret.startsWith(PREFIX) || secret.length > MAX_SECRET_CHARS) return undefined;
    const record = await this.store.tokenByHash(hash);
    if (!record || record.revokedAt !== null || (record.expiresAt !== null && record.expiresAt <= now)) {
      this.recent.delete(secret);
      return undefined;
    }
    if (now - (this.touched.get(record.id) ?? 0) > TOUCH_EVERY_MS) {
      this.touched.set(record.id, now);
      await this.store.touchToken(record.id, now);
    }
    const principal: Principal = { actor: record.actor, role: record.role, tokenId: record.id };
    this.remember(secret, principal, record.expiresAt, now);
    return principal;
  }

  private remember(secret: string, principal: Principal, expiresAt: number | null, now: number): void {
    if (this.recent.size >= 10_000) this.recent.clear(); // bounded: an attacker cannot grow it (only valid tokens enter)
    this.recent.set(secret, { principal, expiresAt, until: now + CACHE_MS });
  }

  /** True when there is at least one token (so the first start knows it must create one). */
  async any(): Promise<boolean> {
    return (await this.store.listTokens()).length > 0;
  }
}

function info(record: TokenRecord): TokenInfo {
  const { hash: _, ...rest } = record;
  return rest;
}
