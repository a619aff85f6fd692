/** The `testInfo` aspect of a metadata test (`urn:li:test:<id>`); see docs/metadata-tests.md. */
export interface TestInfo {
  name: string;
  category: string;
  description?: string;
  definition: { type: string; json: string; md5?: string };
  status?: { mode: 'ACTIVE' | 'INACTIVE' };
  schedule?: { interval: 'DAILY' | 'NONE' };
  [other: string]: unknown;
}

/** What the form edits. */
export interface Draft {
  id: string;
  name: string;
  category: string;
  description: string;
  mode: 'ACTIVE' | 'INACTIVE';
  interval: 'DAILY' | 'NONE';
  json: string;
}

export const TEST_PREFIX = 'urn:li:test:';

/**
 * A new test's definition: datasets are described. Either description counts: ingestion writes
 * `datasetProperties`, the console's "Edit description" (as DataHub's UI) `editableDatasetProperties`.
 */
export const NEW_DEFINITION = `{
  "on": {"types": ["dataset"]},
  "rules": [
    {"or": [
      {"property": "datasetProperties.description", "operator": "exists"},
      {"property": "editableDatasetProperties.description", "operator": "exists"}
    ]}
  ]
}`;

/** The fields a test cannot be saved without (testInfo's required name and category), as the form labels them. */
export const REQUIRED_FIELDS = [
  { key: 'name', label: 'Name', example: 'Datasets are described' },
  { key: 'category', label: 'Category', example: 'Documentation' },
] as const satisfies ReadonlyArray<{ key: keyof Draft; label: string; example: string }>;

/** The required fields the draft leaves empty. */
export function missingFields(draft: Draft): Array<(typeof REQUIRED_FIELDS)[number]['key']> {
  return REQUIRED_FIELDS.filter((f) => draft[f.key].trim() === '').map((f) => f.key);
}

export function draftOf(urn: string, info: TestInfo): Draft {
  return {
    id: urn.slice(TEST_PREFIX.length),
    name: info.name ?? '',
    category: info.category ?? '',
    description: info.description ?? '',
    mode: info.status?.mode === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE',
    interval: info.schedule?.interval === 'NONE' ? 'NONE' : 'DAILY',
    json: pretty(info.definition?.json ?? ''),
  };
}

export function emptyDraft(): Draft {
  return { id: '', name: '', category: '', description: '', mode: 'ACTIVE', interval: 'DAILY', json: NEW_DEFINITION };
}

/** The aspect to write: the stored one (fields the form does not know kept) with the form's values. */
export function infoOf(draft: Draft, stored?: TestInfo): TestInfo {
  const { description: _, ...kept } = stored ?? ({} as Partial<TestInfo>);
  const info: TestInfo = {
    ...kept,
    name: draft.name.trim(),
    category: draft.category.trim(),
    definition: { type: 'JSON', json: draft.json },
    status: { mode: draft.mode },
    schedule: { interval: draft.interval },
  };
  if (draft.description.trim() !== '') info.description = draft.description;
  return info;
}

/** A stored definition, indented for reading and editing (left as is when it is not JSON). */
export function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** The entity types a definition selects (`on.types`), or none when it does not parse. */
export function scopeTypes(json: string): string[] {
  try {
    const types = (JSON.parse(json) as { on?: { types?: unknown } }).on?.types;
    return Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * A definition that selects no entity: JSON with no entity types in `on.types`, such as the `{}`
 * of DataHub's demo tests. It never matches, so running it finds nothing to pass or fail.
 */
export function selectsNothing(json: string): boolean {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    return false; // Not JSON: the server says what is wrong with it, not this flag.
  }
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && scopeTypes(json).length === 0;
}

/** A test id from a name: `Datasets are described` → `datasets-are-described`. */
export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/** One failed leaf condition of a failure's explanation. */
export interface FailedCondition {
  condition: string;
  property: string;
  operator: string;
  values: string[];
  found: unknown[];
  negated?: boolean;
}

export interface TestResult {
  test: string;
  type: 'SUCCESS' | 'FAILURE';
}

export interface TestResults {
  passing: TestResult[];
  failing: TestResult[];
}
