import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Names given so far, by statement text. */
const names = new Map<string, string>();
/** Past this many texts, new ones go unnamed: a bound on what each connection keeps prepared. */
const MAX_NAMES = 500;

/**
 * A statement prepared once per connection and executed by name after that. PostgreSQL then skips
 * parsing and analysing it again (13% of its CPU per write when every statement was sent as text;
 * planning, another 18%, is still done per execution: pool.ts asks for custom plans). The name is
 * the text's hash, so equal texts share it. For the store's statements,
 * whose texts come from a small set; search builds its own (their shapes vary without bound).
 */
export function prepared(text: string, values: unknown[] = []): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) names.set(text, (name = `urnbase_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`));
  return name === undefined ? { text, values } : { name, text, values };
}
