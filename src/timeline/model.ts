/**
 * The timeline's answer, in DataHub's shape (its ChangeTransaction and ChangeEvent): field names,
 * enum values and the order of keys as DataHub's server writes them, absent values left out.
 */

/** The categories a timeline is asked for; each is computed from the aspects whose differs name it. */
export const CATEGORIES = [
  'TAG',
  'OWNER',
  'GLOSSARY_TERM',
  'TECHNICAL_SCHEMA',
  'DOCUMENTATION',
  'DOMAIN',
  'DEPRECATION',
  'LINEAGE',
  'STRUCTURED_PROPERTY',
] as const;

export type ChangeCategory = (typeof CATEGORIES)[number];

export type ChangeOperation = 'ADD' | 'MODIFY' | 'REMOVE';

/** In increasing order of weight, as DataHub compares them. */
export const SEMVER_CHANGES = ['NONE', 'PATCH', 'MINOR', 'MAJOR', 'EXCEPTIONAL'] as const;

export type SemVerChange = (typeof SEMVER_CHANGES)[number];

export interface ChangeEvent {
  entityUrn?: string;
  category?: ChangeCategory;
  operation?: ChangeOperation;
  /** What was added, removed or changed: a tag's URN, a field's URN, an owner, … */
  modifier?: string;
  /** Details by category and operation (DataHub's parameter names). */
  parameters?: Record<string, unknown>;
  semVerChange: SemVerChange;
  description: string;
}

/** One RFC 6902 operation of a raw diff (`raw=true`). */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

export interface ChangeTransaction {
  timestamp: number;
  actor: string;
  semVer: string;
  semVerChange: SemVerChange;
  changeEvents: ChangeEvent[];
  rawDiff?: PatchOperation[];
  /** `aspect:version;…` of every aspect as it stood then (DataHub's version numbers: 0 is the latest). */
  versionStamp: string;
}

/** An event with its keys in DataHub's order and absent ones left out. */
export function changeEvent(fields: ChangeEvent): ChangeEvent {
  const { entityUrn, category, operation, modifier, parameters, semVerChange, description } = fields;
  return {
    ...(entityUrn !== undefined ? { entityUrn } : {}),
    ...(category !== undefined ? { category } : {}),
    ...(operation !== undefined ? { operation } : {}),
    ...(modifier !== undefined ? { modifier } : {}),
    ...(parameters !== undefined ? { parameters } : {}),
    semVerChange,
    description,
  };
}

/** The heavier of two semantic changes. */
export function heavier(a: SemVerChange, b: SemVerChange): SemVerChange {
  return SEMVER_CHANGES.indexOf(a) >= SEMVER_CHANGES.indexOf(b) ? a : b;
}

/** The heaviest change of a list (NONE for none). */
export function heaviest(changes: Iterable<SemVerChange>): SemVerChange {
  let top: SemVerChange = 'NONE';
  for (const change of changes) top = heavier(top, change);
  return top;
}
