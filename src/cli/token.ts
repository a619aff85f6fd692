import { TokenService } from '../auth/tokens.js';
import { openStore } from '../store/open.js';
import { groupUsage, parseOrHelp, subcommand, usageError, type CommandSpec } from './command.js';
import { requireCatalog, STORE_OPTIONS, storeOptions } from './store-options.js';

const ON_THE_STORE = [
  "Works on the catalog's store directly, with or without a server running on it: for bootstrap and recovery.",
  'The catalog must exist (urnbase serve or urnbase migrate creates it): a data dir or database without one is refused (exit 2).',
];

export const TOKEN_CREATE = {
  name: 'token create',
  summary: 'Creates an access token and prints it (only this once).',
  options: {
    name: { type: 'string', value: 'NAME', required: true, help: 'its name; the token acts as urn:li:corpuser:NAME' },
    role: { type: 'string', value: 'ROLE', required: true, help: 'admin, editor or viewer' },
    expires: { type: 'string', value: 'DAYS', help: 'days until it expires (90d or 90)', default: 'never' },
    ...STORE_OPTIONS,
  },
  notes: ON_THE_STORE,
} as const satisfies CommandSpec;

export const TOKEN_LIST = {
  name: 'token list',
  summary: 'Lists access tokens: id, name, role, state, last use (never a secret).',
  options: STORE_OPTIONS,
  notes: ON_THE_STORE,
} as const satisfies CommandSpec;

export const TOKEN_REVOKE = {
  name: 'token revoke',
  positionals: '<id>',
  summary: 'Revokes the access token with this id (a serving process refuses it at once).',
  options: STORE_OPTIONS,
  notes: ON_THE_STORE,
} as const satisfies CommandSpec;

export const TOKEN_COMMANDS: readonly CommandSpec[] = [TOKEN_CREATE, TOKEN_LIST, TOKEN_REVOKE];

/** `urnbase token …`: manage access tokens on the catalog's store, without a server (or its tokens). */
export async function tokenCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  const spec = subcommand('token', TOKEN_COMMANDS, sub);
  if (spec === 'help') {
    out(groupUsage('token', TOKEN_COMMANDS));
    return 0;
  }
  const parsed = parseOrHelp(spec, rest, out);
  if (!parsed) return 0;
  const values = parsed.values as { name?: string; role?: string; expires?: string; 'data-dir'?: string; 'database-url'?: string };
  const { positionals } = parsed;
  if (spec === TOKEN_REVOKE && positionals.length !== 1) throw usageError(spec.name, 'token revoke needs exactly one token id');
  const expiresInDays = values.expires === undefined ? undefined : days(values.expires);
  const where = storeOptions(values, spec.name);
  await requireCatalog(where);
  const store = await openStore(where);
  const tokens = new TokenService(store);
  try {
    if (spec === TOKEN_CREATE) {
      const { token, info } = await tokens.create(
        { name: values.name, role: values.role, expiresInDays },
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
    if (spec === TOKEN_LIST) {
      for (const t of await tokens.list()) {
        const state = t.revokedAt !== null ? 'revoked' : t.expiresAt !== null && t.expiresAt <= Date.now() ? 'expired' : 'active';
        const lastUsed = t.lastUsedAt === null ? 'never used' : `last used ${new Date(t.lastUsedAt).toISOString()}`;
        out(`${t.id}  ${t.name}  ${t.role}  ${state}  ${lastUsed}`);
      }
      return 0;
    }
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
  if (!match) throw usageError(TOKEN_CREATE.name, `Invalid --expires ${JSON.stringify(text)}: expected a number of days such as 90d`);
  return Number(match[1]);
}
