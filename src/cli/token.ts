import { parseArgs } from 'node:util';
import { TokenService } from '../auth/tokens.js';
import { ConfigError } from '../config.js';
import { openStore } from '../store/open.js';
import { STORE_FLAGS, storeOptions } from './store-options.js';

const USAGE = `usage: urnbase token create --name NAME --role admin|editor|viewer [--expires 90d] [--data-dir DIR | --database-url URL]
       urnbase token list [--data-dir DIR | --database-url URL]
       urnbase token revoke <id> [--data-dir DIR | --database-url URL]

Works on the catalog directly (PostgreSQL at $URNBASE_DATABASE_URL, else the data directory
$URNBASE_DATA_DIR or ./data), for bootstrap and recovery.`;

/** `urnbase token …`: manage access tokens on the catalog's store, without a server (or its tokens). */
export async function tokenCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, role: { type: 'string' }, expires: { type: 'string' }, ...STORE_FLAGS },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new ConfigError((error as Error).message.split('\n')[0]);
  }
  const { values, positionals } = parsed;
  if (!['create', 'list', 'revoke'].includes(sub ?? '')) throw new ConfigError(`unknown token command ${JSON.stringify(sub ?? '')}\n${USAGE}`);
  const store = await openStore(storeOptions(values));
  const tokens = new TokenService(store);
  try {
    if (sub === 'create') {
      const { token, info } = await tokens.create(
        { name: values.name, role: values.role, expiresInDays: values.expires === undefined ? undefined : days(values.expires) },
        'urn:li:corpuser:__datahub_system',
      );
      out(`id      ${info.id}`);
      out(`actor   ${info.actor}`);
      out(`role    ${info.role}`);
      out(`expires ${info.expiresAt === null ? 'never' : new Date(info.expiresAt).toISOString()}`);
      out(`token   ${token}`);
      out('(the token is shown only now: store it safely)');
      return 0;
    }
    if (sub === 'list') {
      for (const t of await tokens.list()) {
        const state = t.revokedAt !== null ? 'revoked' : t.expiresAt !== null && t.expiresAt <= Date.now() ? 'expired' : 'active';
        const lastUsed = t.lastUsedAt === null ? 'never used' : `last used ${new Date(t.lastUsedAt).toISOString()}`;
        out(`${t.id}  ${t.name}  ${t.role}  ${state}  ${lastUsed}`);
      }
      return 0;
    }
    if (positionals.length !== 1) throw new ConfigError(`token revoke needs exactly one token id\n${USAGE}`);
    await tokens.revoke(positionals[0]);
    out(`revoked ${positionals[0]}`);
    return 0;
  } finally {
    await store.close();
  }
}

/** `90d` or `90` → 90 days. */
function days(text: string): number {
  const match = /^(\d+)d?$/.exec(text.trim());
  if (!match) throw new ConfigError(`--expires expects a number of days such as 90d, got ${JSON.stringify(text)}`);
  return Number(match[1]);
}
