import { modifiedTime, type AspectView, type EntityView } from '../read/read.js';
import type { JsonSchema, Registry } from '../registry/registry.js';
import { isUrn, parseUrn } from '../urn/urn.js';
import { isRecord } from '../json.js';

/**
 * Property paths of test rules: `<aspect>.<field>…` with arrays flattened at every step, where a
 * step that lands on a URN continues on the referenced entity
 * (`glossaryTerms.terms.urn.glossaryTermInfo.parentNode`); plus `urn`, `entityType`,
 * `structuredProperties.<qualifiedName or property urn>`, `__firstSynchronized`,
 * `__lastSynchronized`, `__lastUpdated`, `schemaFields` and `schemaFields.length`.
 */

const SYSTEM_PATHS = new Set(['urn', 'entityType', '__firstSynchronized', '__lastSynchronized', '__lastUpdated']);
const PROPERTY_PREFIX = 'urn:li:structuredProperty:';

/** Why the path is valid for none of the types (undefined when it is valid for at least one). */
export function pathProblem(registry: Registry, types: readonly string[], path: string): string | undefined {
  const problems = types.map((type) => entityPathProblem(registry, type, path.split('.'), true));
  if (problems.some((p) => p === undefined)) return undefined;
  return `"${path}" is not a property of ${types.join(' or ')}: ${problems[0]}`;
}

function entityPathProblem(registry: Registry, type: string, segments: readonly string[], root: boolean): string | undefined {
  const entity = registry.entityType(type);
  if (!entity) return `unknown entity type ${type}`;
  const [first, ...rest] = segments;
  if (root && rest.length === 0 && SYSTEM_PATHS.has(first)) return undefined;
  if (root && first === 'schemaFields' && (rest.length === 0 || (rest.length === 1 && rest[0] === 'length'))) {
    return entity.aspects.has('schemaMetadata') ? undefined : `${type} has no schema fields`;
  }
  if (root && isPropertyLookup(segments)) {
    return entity.aspects.has('structuredProperties') ? undefined : `${type} has no structured properties`;
  }
  const aspect = registry.aspectOf(entity, first);
  if (!aspect) return `${type} has no aspect ${first}`;
  return fieldPathProblem(registry, aspect.schema, rest, first);
}

function fieldPathProblem(registry: Registry, schema: JsonSchema, fields: readonly string[], at: string): string | undefined {
  let node = registry.deref(schema);
  for (let i = 0; i < fields.length; i++) {
    while (node.type === 'array' && node.items) node = registry.deref(node.items);
    if (node.format === 'urn' || node.urnType !== undefined) {
      // A URN: the rest of the path continues on the referenced entity.
      const targets = node.urnType ? [node.urnType].flat() : registry.entityTypes().map((e) => e.name);
      const rest = fields.slice(i);
      if (targets.some((t) => entityPathProblem(registry, t, rest, false) === undefined)) return undefined;
      return `${at} refers to ${node.urnType ? [node.urnType].flat().join(' or ') : 'an entity'}, which has no aspect ${fields[i]}`;
    }
    const field = fields[i];
    if (node.properties?.[field]) node = registry.deref(node.properties[field]);
    else if (typeof node.additionalProperties === 'object') node = registry.deref(node.additionalProperties);
    else if (node.additionalProperties === true) return undefined; // a deliberately open schema: nothing more to check
    else if (node.type === 'object' || node.properties) return `${at} has no field ${field}`;
    else return `${at} is a value and has no field ${field}`;
    at = `${at}.${field}`;
  }
  return undefined;
}

/** `structuredProperties.<qualifiedName or urn>`, as opposed to a path into the aspect itself. */
function isPropertyLookup(segments: readonly string[]): boolean {
  return segments[0] === 'structuredProperties' && segments.length > 1 && segments[1] !== 'properties';
}

/** A property path, compiled once: what it reads and, for aspect paths, the fields it walks. */
export type PropertyPath =
  | { kind: 'urn' | 'entityType' | '__firstSynchronized' | '__lastSynchronized' | '__lastUpdated' | 'schemaFields' | 'schemaFields.length' }
  | { kind: 'structuredProperty'; propertyUrn: string }
  | {
      kind: 'aspect';
      /** The first segment: an aspect name as written (canonical or lower-case). */
      aspect: string;
      fields: readonly string[];
      /** The rest of the path from field i on, compiled when a hop first needs it. */
      rest: Array<PropertyPath | undefined>;
    };

const SPECIAL = new Set(['urn', 'entityType', '__firstSynchronized', '__lastSynchronized', '__lastUpdated', 'schemaFields', 'schemaFields.length']);

/** Compiles a path (checked by pathProblem first). */
export function compilePath(path: string): PropertyPath {
  if (SPECIAL.has(path)) return { kind: path } as PropertyPath;
  const segments = path.split('.');
  if (isPropertyLookup(segments)) {
    const id = segments.slice(1).join('.');
    return { kind: 'structuredProperty', propertyUrn: id.startsWith(PROPERTY_PREFIX) ? id : `${PROPERTY_PREFIX}${id}` };
  }
  const [aspect, ...fields] = segments;
  return { kind: 'aspect', aspect, fields, rest: [] };
}

/** Marks a hop target that is not loaded yet (see HopTargets). */
export const NOT_LOADED = Symbol('not loaded');

/**
 * The entities URN hops land on, looked up synchronously during evaluation. A target that is not
 * loaded yet answers NOT_LOADED and is noted (misses counts them): the caller loads what was
 * noted and evaluates again.
 */
export interface HopTargets {
  readonly misses: number;
  /** The entity with (at least) the named aspects, all when undefined; undefined when it does not exist. */
  get(urn: string, aspects: ReadonlySet<string> | undefined): EntityView | undefined | typeof NOT_LOADED;
}

/** The values a path yields on an entity: a flat list, empty when nothing is there. */
export function resolvePath(registry: Registry, entity: EntityView, path: PropertyPath, hops: HopTargets): unknown[] {
  const aspects = entity.aspects;
  switch (path.kind) {
    case 'urn':
      return [entity.urn];
    case 'entityType':
      return [entity.entityType];
    case '__firstSynchronized': {
      const key = registry.entityType(entity.entityType)?.keyAspect.name;
      const sm = key ? aspects.get(key)?.systemMetadata : undefined;
      const created = sm?.version === undefined ? undefined : sm.aspectCreated.time;
      return created === undefined ? [] : [created];
    }
    case '__lastSynchronized':
      return latest(aspects, (a) => a.systemMetadata.lastObserved);
    case '__lastUpdated':
      return latest(aspects, (a) => modifiedTime(a.systemMetadata));
    case 'schemaFields':
      return schemaFields(aspects);
    case 'schemaFields.length':
      return aspects.has('schemaMetadata') ? [schemaFields(aspects).length] : [];
    case 'structuredProperty': {
      const entries = (aspects.get('structuredProperties')?.value as { properties?: Array<{ propertyUrn: string; values: unknown[] }> })?.properties;
      const values = entries?.find((e) => e.propertyUrn === path.propertyUrn)?.values ?? [];
      return values.map((v) => (v as { string?: string; double?: number }).string ?? (v as { double?: number }).double);
    }
    case 'aspect': {
      const spec = registry.entityType(entity.entityType);
      const aspect = spec && registry.aspectOf(spec, path.aspect);
      const value = aspect && aspects.get(aspect.name)?.value;
      return value === undefined ? [] : walk(registry, value, path, hops);
    }
  }
}

function walk(registry: Registry, start: unknown, path: Extract<PropertyPath, { kind: 'aspect' }>, hops: HopTargets): unknown[] {
  const { fields } = path;
  let values: unknown[] = [];
  pushFlat(values, start);
  for (let i = 0; i < fields.length; i++) {
    if (values.length > 0 && values.every(refersToEntity)) {
      // A hop: the rest of the path is read on the referenced entities.
      const urns = [...new Set(values as string[])];
      const rest = (path.rest[i] ??= compilePath(fields.slice(i).join('.')));
      const aspects = hopAspects(registry, urns, fields[i]);
      const found: unknown[] = [];
      for (const urn of urns) {
        const target = hops.get(urn, aspects);
        if (target !== NOT_LOADED && target !== undefined) for (const value of resolvePath(registry, target, rest, hops)) found.push(value);
      }
      return found;
    }
    const field = fields[i];
    const next: unknown[] = [];
    for (const value of values) if (isRecord(value) && Object.hasOwn(value, field)) pushFlat(next, value[field]);
    values = next;
  }
  return values;
}

/** Only strings that look like URNs are parsed: a failed parse costs an exception. */
const refersToEntity = (value: unknown): boolean => typeof value === 'string' && value.startsWith('urn:li:') && isUrn(value);

/**
 * The aspect a hop's remaining path starts with, when every referenced entity type has it (a
 * glossary term's `glossaryTermInfo`): only that one is loaded. Otherwise (`urn`, `__lastUpdated`,
 * …) everything is.
 */
function hopAspects(registry: Registry, urns: readonly string[], first: string): Set<string> | undefined {
  const names = new Set<string>();
  for (const urn of urns) {
    const spec = registry.entityType(parseUrn(urn).entityType);
    const aspect = spec && registry.aspectOf(spec, first);
    if (!aspect) return undefined;
    names.add(aspect.name);
  }
  return names;
}

/** Each schema field with its source and editable descriptions. */
function schemaFields(aspects: ReadonlyMap<string, AspectView>): Array<{ fieldPath: string; description?: string; editableDescription?: string }> {
  const fields = (aspects.get('schemaMetadata')?.value as { fields?: Array<{ fieldPath: string; description?: string }> })?.fields ?? [];
  const editable = (aspects.get('editableSchemaMetadata')?.value as { editableSchemaFieldInfo?: Array<{ fieldPath: string; description?: string }> })
    ?.editableSchemaFieldInfo ?? [];
  const editedDescription = new Map(editable.map((e) => [e.fieldPath, e.description]));
  return fields.map((f) => ({
    fieldPath: f.fieldPath,
    ...(f.description !== undefined ? { description: f.description } : {}),
    ...(editedDescription.get(f.fieldPath) !== undefined ? { editableDescription: editedDescription.get(f.fieldPath) } : {}),
  }));
}

function latest(aspects: ReadonlyMap<string, AspectView>, time: (a: AspectView) => number): number[] {
  const times = [...aspects.values()].map(time).filter((t) => typeof t === 'number');
  return times.length === 0 ? [] : [Math.max(...times)];
}

/** Appends a value, or the leaves of nested arrays; undefined adds nothing. */
function pushFlat(out: unknown[], value: unknown): void {
  if (Array.isArray(value)) for (const item of value) pushFlat(out, item);
  else if (value !== undefined) out.push(value);
}
