import { RE2JS } from 're2js';

/**
 * The operators of a test rule. Each compares the values resolved from a property (`found`,
 * possibly empty) with the values the rule gives; comparisons are existential: any found value
 * against any given value.
 */
export type OperatorName =
  | 'equals'
  | 'contains_any'
  | 'contains_str'
  | 'starts_with'
  | 'regex_match'
  | 'greater_than'
  | 'less_than'
  | 'exists'
  | 'is_true'
  | 'is_false'
  | 'schema_fields_have_descriptions';

export interface Operator {
  name: OperatorName;
  /** Unary operators look at the property only; binary ones need at least one given value. */
  binary: boolean;
  /** Checks given values once, when the definition is parsed (e.g. that a regex compiles). */
  checkValues?(given: readonly string[]): string | undefined;
  evaluate(found: readonly unknown[], given: readonly string[]): boolean;
}

/** Values as text: numbers and booleans in their JSON form, objects as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

const anyPair = (found: readonly unknown[], given: readonly string[], test: (f: string, g: string) => boolean) =>
  found.some((f) => given.some((g) => test(asText(f), g)));

/**
 * Numbers compare as 64-bit floats; ISO dates (`2024-05-01`, `2024-05-01T10:00:00Z`) and epoch
 * milliseconds compare as instants. Anything else does not compare (the condition is false).
 */
export function comparable(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    const time = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
    return Number.isNaN(time) ? undefined : time;
  }
  return undefined;
}

const compare = (found: readonly unknown[], given: readonly string[], test: (f: number, g: number) => boolean) =>
  found.some((f) => {
    const a = comparable(f);
    return a !== undefined && given.some((g) => {
      const b = comparable(g);
      return b !== undefined && test(a, b);
    });
  });

const present = (value: unknown): boolean =>
  value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && !value.some(present));

// RE2 semantics (linear time): a pattern cannot stall the server with catastrophic backtracking.
// Patterns come from stored definitions, so the same few are compiled over and over: keep them.
const compiled = new Map<string, RE2JS>();
const wholeMatch = (pattern: string): RE2JS => {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = RE2JS.compile(pattern);
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
};

const OPERATORS: readonly Operator[] = [
  { name: 'equals', binary: true, evaluate: (found, given) => anyPair(found, given, (f, g) => f === g) },
  { name: 'contains_any', binary: true, evaluate: (found, given) => anyPair(found, given, (f, g) => f === g) },
  { name: 'contains_str', binary: true, evaluate: (found, given) => anyPair(found, given, (f, g) => f.includes(g)) },
  { name: 'starts_with', binary: true, evaluate: (found, given) => anyPair(found, given, (f, g) => f.startsWith(g)) },
  {
    name: 'regex_match',
    binary: true,
    checkValues(given) {
      for (const pattern of given) {
        try {
          wholeMatch(pattern);
        } catch (error) {
          return `invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`;
        }
      }
      return undefined;
    },
    evaluate(found, given) {
      const patterns = given.map(wholeMatch);
      // matches() is a whole-string match, like DataHub's Java String.matches.
      return found.some((f) => patterns.some((p) => p.matches(asText(f))));
    },
  },
  {
    name: 'greater_than',
    binary: true,
    checkValues: (given) => (given.every((g) => comparable(g) !== undefined) ? undefined : 'values must be numbers, ISO dates or epoch milliseconds'),
    evaluate: (found, given) => compare(found, given, (f, g) => f > g),
  },
  {
    name: 'less_than',
    binary: true,
    checkValues: (given) => (given.every((g) => comparable(g) !== undefined) ? undefined : 'values must be numbers, ISO dates or epoch milliseconds'),
    evaluate: (found, given) => compare(found, given, (f, g) => f < g),
  },
  { name: 'exists', binary: false, evaluate: (found) => found.some(present) },
  {
    name: 'is_true',
    binary: false,
    evaluate: (found) => found.length > 0 && !found.every((f) => ['', 'false'].includes(asText(f).toLowerCase())),
  },
  {
    name: 'is_false',
    binary: false,
    evaluate: (found) =>
      found.length === 0 || found.some((f) => asText(f).toLowerCase() === 'false') || found.every((f) => asText(f) === ''),
  },
  {
    name: 'schema_fields_have_descriptions',
    binary: false,
    evaluate(found) {
      const described = (field: unknown) => {
        const f = field as { description?: unknown; editableDescription?: unknown } | null;
        return present(f?.description) || present(f?.editableDescription);
      };
      return found.length > 0 && found.every(described);
    },
  },
];

const BY_NAME = new Map(OPERATORS.map((o) => [o.name, o]));

/** Every operator, by name, with whether it takes values. */
export function operatorList(): Array<{ name: OperatorName; binary: boolean }> {
  return OPERATORS.map(({ name, binary }) => ({ name, binary }));
}

/** An operator by name, case-insensitively. */
export function operatorNamed(name: string): Operator | undefined {
  return BY_NAME.get(name.toLowerCase() as OperatorName);
}
