import { TEXT_COLUMNS, type TextColumn, type TextCondition } from '../search-types.js';

/**
 * Full text on PostgreSQL, tokenised here rather than by a text-search configuration, so that
 * words are exactly SQLite FTS5's `unicode61 remove_diacritics 2` words: runs of letters, digits
 * and private-use characters (everything else separates, underscores, dots and combining marks
 * too — PostgreSQL's parser would keep `db.table` whole), lower-cased one character at a time,
 * Latin letters stripped of their diacritics (other scripts keep theirs, as in FTS5).
 *
 * An entity's document is one tsvector whose weights say the column: name A, qualifiedName B,
 * keywords C, description D. Field paths are the fifth column, with no weight left: their words
 * are stored as `~word` (a lexeme no real word can be, as `~` separates words), so a query for any
 * column asks for `word:* | ~word:*` within one tsquery and one index probe. Columns are kept apart
 * by a gap in positions, so a phrase never runs from one column into the next.
 */

/**
 * PostgreSQL text cannot hold U+0000, which SQLite's can (a name may carry it, escaped in JSON).
 * Index values and search parameters carry it as U+FFFD instead, on both sides, so they still
 * match each other; aspects themselves are JSON text, where it is always escaped.
 */
export function pgText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

const WEIGHT: Record<Exclude<TextColumn, 'fieldPaths'>, string> = { name: 'A', qualifiedName: 'B', keywords: 'C', description: 'D' };
const PATH_MARK = '~';
/**
 * PostgreSQL's limits: positions up to 16383, 256 per lexeme, lexemes under 2 KB, and under 1 MB
 * of distinct lexemes in all ("string is too long for tsvector": 200,000 tags' words made 2 MB).
 * Words past that last one are not in the document: free text does not find them on PostgreSQL,
 * a field's filter (tags:…) still does.
 */
const MAX_POSITION = 16383;
const MAX_POSITIONS_PER_LEXEME = 256;
const MAX_LEXEME_BYTES = 2000;
const MAX_VECTOR_BYTES = 1_000_000;

/** Letters, digits, private use, and (as in FTS5's tables) unassigned code points. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}\p{Cn}]/u;

/** One character folded as FTS5 folds it: lower case, a Latin letter without its diacritics. */
function fold(c: string): string {
  // Case folding, as FTS5's: µ is μ, ſ is s, ς is σ (lower case of the upper case, when that is one character).
  const upper = c.toUpperCase();
  let lower = [...upper].length === 1 && c !== '\u0131' && /\p{L}/u.test(c) ? upper.toLowerCase() : c.toLowerCase();
  // Only U+0130 (İ) lower-cases into two characters (i and a combining dot); FTS5 makes it `i`.
  if ([...lower].length !== 1) lower = lower.normalize('NFD')[0] ?? lower;
  const code = lower.codePointAt(0)!;
  if ((code >= 0xc0 && code <= 0x24f) || (code >= 0x1e00 && code <= 0x1eff)) {
    const base = lower.normalize('NFD')[0];
    if (base !== undefined && base >= 'a' && base <= 'z') return base;
  }
  return lower;
}

/** The combining marks FTS5 removes (they belong to the word, and vanish); other marks separate words. */
const DIACRITICS = new Set([
  0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30a, 0x30b, 0x30c, 0x30f, 0x311, 0x31b,
  0x323, 0x324, 0x325, 0x326, 0x327, 0x328, 0x32d, 0x32e, 0x330, 0x331,
]);

/** The words of a text, as FTS5 unicode61 (remove_diacritics 2) makes them. */
export function words(text: string): string[] {
  // ASCII, most of any catalog's text, by the regular-expression engine (a twentieth of the loop's cost).
  if (ASCII.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  const out: string[] = [];
  let word = '';
  for (const c of text) {
    if (DIACRITICS.has(c.codePointAt(0)!)) continue;
    const folded = fold(c);
    if (TOKEN_CHAR.test(folded)) word += folded;
    else if (word) {
      out.push(word);
      word = '';
    }
  }
  if (word) out.push(word);
  return out;
}

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

/** The tsvector literal of an entity's document (columns joined from its aspects' texts); '' when empty. */
export function documentVector(columns: Partial<Record<TextColumn, string>>): string {
  const lexemes = new Map<string, string[]>();
  let position = 0;
  let bytes = 0;
  for (const column of TEXT_COLUMNS) {
    const text = columns[column];
    if (!text) continue;
    const mark = column === 'fieldPaths' ? PATH_MARK : '';
    const weight = column === 'fieldPaths' ? 'D' : WEIGHT[column];
    for (const word of words(text)) {
      position = Math.min(position + 1, MAX_POSITION);
      const lexeme = mark + word;
      let positions = lexemes.get(lexeme);
      if (!positions) {
        const size = Buffer.byteLength(lexeme);
        if (size > MAX_LEXEME_BYTES || bytes + size > MAX_VECTOR_BYTES) continue;
        bytes += size;
        lexemes.set(lexeme, (positions = []));
      }
      if (positions.length < MAX_POSITIONS_PER_LEXEME) positions.push(`${position}${weight}`);
    }
    // A gap: no phrase runs across columns.
    position = Math.min(position + 1, MAX_POSITION);
  }
  return [...lexemes].map(([lexeme, positions]) => `${quote(lexeme)}:${[...new Set(positions)].join(',')}`).join(' ');
}

/**
 * The tsquery literal of a text condition, as FTS5 reads `{columns} : ("w1" AND "w2" *)`: each
 * word (a phrase of its own words when it has several) in one of the columns; a phrase's words in
 * sequence within one column; the last word a prefix when asked. undefined: it matches nothing
 * (a word without letters or digits, as FTS5's empty phrase).
 */
export function textQuery(c: Pick<TextCondition, 'columns' | 'words' | 'phrase' | 'prefix'>): string | undefined {
  const columns = c.columns ?? TEXT_COLUMNS;
  const weights = columns.flatMap((col) => (col === 'fieldPaths' ? [] : [WEIGHT[col]])).sort().join('');
  const paths = columns.includes('fieldPaths');
  // Every lexeme has one of the four weights: asking for all four is asking for none, which the
  // GIN index answers alone (it does not hold weights, so a weighted query rechecks each row).
  const restriction = weights === 'ABCD' ? '' : weights;
  const unit = (tokens: string[], prefix: boolean): string => {
    const sequence = (mark: string, weight: string) =>
      tokens.map((t, i) => `${quote(mark + t)}${prefix && i === tokens.length - 1 ? ':*' : weight ? ':' : ''}${weight}`).join(' <-> ');
    const forms = [...(weights ? [sequence('', restriction)] : []), ...(paths ? [sequence(PATH_MARK, '')] : [])];
    return forms.length === 1 ? `(${forms[0]})` : `(${forms.map((f) => `(${f})`).join(' | ')})`;
  };
  if (!weights && !paths) return undefined;
  if (c.phrase) {
    const tokens = c.words.flatMap(words);
    return tokens.length === 0 ? undefined : unit(tokens, c.prefix);
  }
  const units: string[] = [];
  for (const [i, word] of c.words.entries()) {
    const tokens = words(word);
    if (tokens.length === 0) return undefined;
    units.push(unit(tokens, c.prefix && i === c.words.length - 1));
  }
  return units.length === 0 ? undefined : units.join(' & ');
}

function quote(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
