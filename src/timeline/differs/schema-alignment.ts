import { isRecord } from '../../json.js';
import { downgradedFieldPath } from '../schema-fields.js';
import { compare, records, text } from '../values.js';

/** A field of schemaMetadata, as the diff reads it (Pegasus defaults applied). */
export interface SchemaField {
  path: string;
  nativeType: string;
  nullable: boolean;
  description?: string;
  globalTags?: unknown;
  glossaryTerms?: unknown;
  /** Equal for fields with equal content (Java's equals on records). */
  content: string;
}

/** Fields whose v2 paths moved while naming the same column (a type in the path changed). */
export interface MovedGroup {
  base: SchemaField[];
  target: SchemaField[];
  /** A field of this column kept its path: the merge-join already compares its documentation and tags. */
  hasStableField: boolean;
}

/** How the fields of two versions correspond, in the order DataHub reports them. */
export type Alignment =
  | { kind: 'same'; base: SchemaField; target: SchemaField }
  | { kind: 'moved'; group: MovedGroup }
  | { kind: 'renamed'; base: SchemaField; target: SchemaField }
  | { kind: 'removed'; base: SchemaField }
  | { kind: 'added'; target: SchemaField };

/** The fields of a schemaMetadata value, sorted by path (a stable sort, as Java's). */
export function schemaFields(schemaMetadata: unknown): SchemaField[] {
  return records(schemaMetadata, 'fields')
    .flatMap((f) => {
      const path = text(f, 'fieldPath');
      if (path === undefined) return [];
      return [{
        path,
        nativeType: text(f, 'nativeDataType') ?? '',
        nullable: f.nullable === true,
        description: text(f, 'description'),
        globalTags: f.globalTags,
        glossaryTerms: f.glossaryTerms,
        content: canonical(f),
      }];
    })
    .sort((a, b) => compare(a.path, b.path));
}

/**
 * DataHub's schema diff: a merge-join of both versions' fields by path. A field only on one side
 * is first paired with a moved column (same type-stripped path on both sides, see movedGroups),
 * then with a renamed one (same native type, same parent path, same description, not paired yet),
 * and otherwise is removed or added.
 */
export function alignFields(base: readonly SchemaField[], target: readonly SchemaField[]): Alignment[] {
  const steps: Alignment[] = [];
  const moved = movedGroups(base, target);
  const renamed = new Set<SchemaField>();
  const done = new Set<SchemaField>();
  const candidate = (field: SchemaField, ownSide: readonly SchemaField[], otherSide: readonly SchemaField[]) =>
    otherSide.find(
      (other) =>
        isRenamed(field, other) &&
        !renamed.has(other) &&
        !moved.has(other) &&
        // A field equal to one still ahead on this side will be matched by path later.
        !ownSide.some((own) => own.content === other.content),
    );
  let i = 0;
  let j = 0;
  while (i < base.length && j < target.length) {
    const b = base[i];
    const t = target[j];
    if (renamed.has(b) || done.has(b)) {
      i++;
      continue;
    }
    if (renamed.has(t) || done.has(t)) {
      j++;
      continue;
    }
    const order = compare(b.path, t.path);
    if (order === 0) {
      steps.push({ kind: 'same', base: b, target: t });
      i++;
      j++;
      continue;
    }
    const field = order < 0 ? b : t;
    const group = moved.get(field);
    if (group) {
      steps.push({ kind: 'moved', group });
      for (const f of [...group.base, ...group.target]) done.add(f);
    } else if (order < 0) {
      const to = candidate(b, base.slice(i), target.slice(j));
      if (to) renamed.add(to);
      steps.push(to ? { kind: 'renamed', base: b, target: to } : { kind: 'removed', base: b });
    } else {
      const from = candidate(t, target.slice(j), base.slice(i));
      if (from) renamed.add(from);
      steps.push(from ? { kind: 'renamed', base: from, target: t } : { kind: 'added', target: t });
    }
    if (order < 0) i++;
    else j++;
  }
  for (; i < base.length; i++) if (!renamed.has(base[i]) && !done.has(base[i])) steps.push({ kind: 'removed', base: base[i] });
  for (; j < target.length; j++) if (!renamed.has(target[j]) && !done.has(target[j])) steps.push({ kind: 'added', target: target[j] });
  return steps;
}

function isRenamed(a: SchemaField, b: SchemaField): boolean {
  return a.nativeType === b.nativeType && parentsMatch(a.path, b.path) && a.description === b.description;
}

function parentsMatch(a: string, b: string): boolean {
  const i = a.lastIndexOf('.');
  const j = b.lastIndexOf('.');
  if (i > 0 && j > 0) return a.slice(0, i) === b.slice(0, j);
  return i < 0 && j < 0;
}

/**
 * Fields only one side has, grouped by their path with the `[type=…]` parts dropped: a group with
 * fields on both sides is one column whose v2 path moved (connectors that write the type into the
 * path move it when the type changes). Each field maps to its group.
 */
function movedGroups(base: readonly SchemaField[], target: readonly SchemaField[]): Map<SchemaField, MovedGroup> {
  const basePaths = new Set(base.map((f) => f.path));
  const targetPaths = new Set(target.map((f) => f.path));
  const byColumn = (fields: readonly SchemaField[], other: ReadonlySet<string>) => {
    const columns = new Map<string, SchemaField[]>();
    for (const f of fields) {
      if (other.has(f.path)) continue;
      const column = downgradedFieldPath(f.path);
      const fields = columns.get(column);
      if (fields) fields.push(f);
      else columns.set(column, [f]);
    }
    return columns;
  };
  const baseColumns = byColumn(base, targetPaths);
  const targetColumns = byColumn(target, basePaths);
  const stable = new Set(base.filter((f) => targetPaths.has(f.path)).map((f) => downgradedFieldPath(f.path)));
  const groups = new Map<SchemaField, MovedGroup>();
  for (const [column, baseFields] of baseColumns) {
    const targetFields = targetColumns.get(column);
    if (!targetFields) continue;
    const group = { base: columnFirst(baseFields), target: columnFirst(targetFields), hasStableField: stable.has(column) };
    for (const f of [...group.base, ...group.target]) groups.set(f, group);
  }
  return groups;
}

/** The least nested path first (the column itself rather than one of its type branches), then by path. */
function columnFirst(fields: readonly SchemaField[]): SchemaField[] {
  const depth = (f: SchemaField) => f.path.split('.').length;
  return [...fields].sort((a, b) => depth(a) - depth(b) || compare(a.path, b.path));
}

/** The distinct native types of a group's side, sorted: `int, string`. */
export function nativeTypes(fields: readonly SchemaField[]): string {
  return [...new Set(fields.map((f) => f.nativeType))].sort(compare).join(', ');
}

/** JSON with object keys sorted: equal texts for equal records whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort(compare)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
