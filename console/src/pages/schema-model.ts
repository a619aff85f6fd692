import { shortTypeName, unionMember } from '../components/json-view';

/**
 * The rows of a schema table, from `schemaMetadata` and `editableSchemaMetadata`. Field paths
 * come in DataHub's two forms: v1 `address.city`, and v2 with its annotations
 * `[version=2.0].[type=struct].[type=string].address.city`; both read as `address.city`.
 */

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null) : []);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export interface FieldRow {
  /** The path as stored (what editableSchemaMetadata and links name). */
  fieldPath: string;
  /** The path without v2 annotations: `address.city`. */
  path: string;
  /** The path's parent (`address`), or '' at the top. */
  parent: string;
  /** The last segment: `city`. */
  name: string;
  depth: number;
  /** The union member's short name (`StringType`), or ''. */
  type: string;
  nativeType: string;
  nullable: boolean;
  description?: string;
  /** The ingested description, when an edited one replaces it. */
  original?: string;
  /** Tags and glossary terms, of the field and of its edit, without repeats. */
  labels: string[];
}

/** The segments of a field path, v2 annotations (`[type=struct]`) left out. */
export function pathSegments(fieldPath: string): string[] {
  // An annotation may hold dots (`[version=2.0]`): tokens are bracketed runs or dot-free names.
  const segments = (fieldPath.match(/\[[^\]]*\]|[^.[]+/g) ?? []).filter((s) => !s.startsWith('['));
  return segments.length ? segments : [fieldPath];
}

export function fieldRows(schema: Json | undefined, editable: Json | undefined): FieldRow[] {
  const edits = new Map(list(editable?.editableSchemaFieldInfo).map((f) => [str(f.fieldPath), f]));
  return list(schema?.fields).map((field) => {
    const fieldPath = str(field.fieldPath) ?? '';
    const segments = pathSegments(fieldPath);
    const edit = edits.get(fieldPath);
    const original = str(field.description);
    const edited = str(edit?.description);
    const tags = [...list((field.globalTags as Json | undefined)?.tags), ...list((edit?.globalTags as Json | undefined)?.tags)].flatMap((t) => str(t.tag) ?? []);
    const terms = [...list((field.glossaryTerms as Json | undefined)?.terms), ...list((edit?.glossaryTerms as Json | undefined)?.terms)].flatMap((t) => str(t.urn) ?? []);
    const member = unionMember((field.type as Json | undefined)?.type);
    return {
      fieldPath,
      path: segments.join('.'),
      parent: segments.slice(0, -1).join('.'),
      name: segments[segments.length - 1],
      depth: segments.length - 1,
      type: member ? shortTypeName(member.name) : '',
      nativeType: str(field.nativeDataType) ?? '',
      nullable: field.nullable === true,
      description: edited ?? original,
      original: edited && original && edited !== original ? original : undefined,
      labels: [...new Set([...tags, ...terms])],
    };
  });
}

/** Rows whose path, type or description holds `text` (any case). */
export function filterRows(rows: FieldRow[], text: string): FieldRow[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((r) => r.path.toLowerCase().includes(needle) || r.nativeType.toLowerCase().includes(needle) || (r.description ?? '').toLowerCase().includes(needle));
}

/** How a row's path reads on a page: just its name under its parent's row, else the whole path. */
export function labelsOnPage(rows: FieldRow[]): string[] {
  const shown = new Set<string>();
  return rows.map((r) => {
    const label = r.parent && shown.has(r.parent) ? r.name : r.path;
    shown.add(r.path);
    return label;
  });
}
