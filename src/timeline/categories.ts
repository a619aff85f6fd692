import { ValidationError } from '../errors.js';
import { quoted } from '../limits.js';
import { CATEGORIES, type ChangeCategory } from './model.js';

/** Other spellings clients send: DataHub's GraphQL API and some of its CLI versions say OWNERSHIP. */
const ALIASES: Readonly<Record<string, ChangeCategory>> = { OWNERSHIP: 'OWNER' };

const KNOWN: ReadonlySet<string> = new Set(CATEGORIES);

/**
 * The `categories` parameter, repeated or comma-separated as Spring reads a set of enums, in the
 * order first named. As DataHub's converter, any case is accepted and the words of a compound
 * name may be joined by `_`, `-` or a space (`technical schema`).
 */
export function parseCategories(values: readonly string[]): ChangeCategory[] {
  const categories: ChangeCategory[] = [];
  for (const given of values.flatMap((v) => v.split(','))) {
    const word = given.trim();
    if (word.length === 0) continue;
    const name = word.toUpperCase().replace(/[\s-]+/g, '_');
    const category = ALIASES[name] ?? (KNOWN.has(name) ? (name as ChangeCategory) : undefined);
    if (category === undefined) throw new ValidationError(`categories: ${quoted(word)} is not a timeline category; one of ${CATEGORIES.join(', ')}`);
    if (!categories.includes(category)) categories.push(category);
  }
  if (categories.length === 0) throw new ValidationError(`categories is required: one or more of ${CATEGORIES.join(', ')}`);
  return categories;
}
