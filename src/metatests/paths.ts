import { modifiedTime, type AspectView, type EntityView } from '../read/read.js';
import type { EntitySpec, JsonSchema, Registry } from '../registry/registry.js';
import { isUrn, parseUrn } from '../urn/urn.js';
import { isRecord } from '../json.js';
import { isLineageStep, LineageLimitError, MAX_LINEAGE_ENTITIES, parseLineageStep, type LineageStep, type Reach } from './lineage-steps.js';

/**
 * Property paths of test rules: `<aspect>.<field>…` with arrays flattened at every step, where a
 * step that lands on a URN continues on the referenced entity
 * (`glossaryTerms.terms.urn.glossaryTermInfo.parentNode`); plus `urn`, `entityType`,
 * `structuredProperties.<qualifiedName or property urn>`, `__firstSynchronized`,
 * `__lastSynchronized`, `__lastUpdated`, `schemaFields` and `schemaFields.length`; and, where an
 * entity's path starts, one lineage step (`__upstreams[:N]`, `__downstreams[:N]`: see
 * lineage-steps.ts).
 */

const SYSTEM_PATHS = new Set(['urn', 'entityType', '__firstSynchronized', '__lastSynchronized', '__lastUpdated']);
const PROPERTY_PREFIX = 'urn:li:structuredProperty:';

/** Why the path is valid for none of the types (undefined when it is valid for at least one). */
export function pathProblem(registry: Registry, types: readonly string[], path: string): string | undefined {
  const segments = path.split('.');
  // One lineage step a path: two would multiply the entities reached (a thousand each).
  if (segments.filter(isLineageStep).length > 1) return `"${path}" follows lineage more than once: a path may take one lineage step`;
  const problems = types.map((type) => entityPathProblem(registry, type, segments, true));
  if (problems.some((p) => p === undefined)) return undefined;
  return `"${path}" is not a property of ${types.join(' or ')}: ${problems[0]}`;
}

function entityPathProblem(registry: Registry, type: string, segments: readonly string[], root: boolean): string | undefined {
  const entity = registry.entityType(type);
  if (!entity) return `unknown entity type ${type}`;
  const [first, ...rest] = segments;
  if (isLineageStep(first)) return lineagePathProblem(registry, first, rest);
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

/**
 * A lineage step and the path read on the entities it reaches: valid when some entity type the
 * lineage graph holds has that path (datasets, jobs, charts, …; none is left out in advance).
 */
function lineagePathProblem(registry: Registry, segment: string, rest: readonly string[]): string | undefined {
  const step = parseLineageStep(segment);
  if (typeof step === 'string') return step;
  if (rest.length === 0) return undefined;
  if (registry.entityTypes().some((e) => entityPathProblem(registry, e.name, rest, true) === undefined)) return undefined;
  return `${segment} reaches entities of any type, and none has ${rest.join('.')}`;
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
    }
  /** A lineage step, then the path read on each entity reached (none: their URNs). */
  | { kind: 'lineage'; step: LineageStep; rest?: PropertyPath };

const SPECIAL = new Set(['urn', 'entityType', '__firstSynchronized', '__lastSynchronized', '__lastUpdated', 'schemaFields', 'schemaFields.length']);

/** Compiles a path (checked by pathProblem first). */
export function compilePath(path: string): PropertyPath {
  if (SPECIAL.has(path)) return { kind: path } as PropertyPath;
  const segments = path.split('.');
  if (isLineageStep(segments[0])) {
    const step = parseLineageStep(segments[0]);
    if (typeof step === 'string') throw new Error(step); // pathProblem said so first
    return segments.length === 1 ? { kind: 'lineage', step } : { kind: 'lineage', step, rest: compilePath(segments.slice(1).join('.')) };
  }
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
  /** The entities a lineage step reaches from the URN, nearest first; NOT_LOADED until its edges are loaded. */
  lineage(urn: string, step: LineageStep): Reach | typeof NOT_LOADED;
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
    case 'lineage':
      return followLineage(registry, entity.urn, path, hops);
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
      if (rest.kind === 'lineage') return urns.flatMap((urn) => followLineage(registry, urn, rest, hops));
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

/**
 * A lineage step from the entity with the URN (which need not exist: edges may name it), then the
 * rest of the path on each entity reached, read with the aspects it starts with. Past
 * MAX_LINEAGE_ENTITIES the step throws rather than answer for part of its lineage.
 */
function followLineage(registry: Registry, urn: string, path: Extract<PropertyPath, { kind: 'lineage' }>, hops: HopTargets): unknown[] {
  const reach = hops.lineage(urn, path.step);
  if (reach === NOT_LOADED) return [];
  if (reach.truncated) {
    const way = path.step.direction === 'UPSTREAM' ? 'upstream' : 'downstream';
    throw new LineageLimitError(`more than ${MAX_LINEAGE_ENTITIES.toLocaleString('en-US')} entities ${way} of ${urn} within ${path.step.maxHops} hops: the condition is not judged on part of them`);
  }
  const { rest } = path;
  if (!rest) return reach.urns;
  const found: unknown[] = [];
  for (const target of reach.urns) {
    const spec = registry.entityType(parseUrn(target).entityType);
    if (!spec) continue;
    const aspects = aspectsStarting(registry, spec, rest);
    if (aspects === null) continue;
    const entity = hops.get(target, aspects);
    if (entity !== NOT_LOADED && entity !== undefined) for (const value of resolvePath(registry, entity, rest, hops)) found.push(value);
  }
  return found;
}

/**
 * What an entity must be read with for a path to be resolved on it: the aspect the path starts
 * with, its key (urn, entityType), or all of them (the last-updated timestamps); null when its
 * type lacks the aspect, so the path finds nothing there and nothing is read.
 */
function aspectsStarting(registry: Registry, spec: EntitySpec, path: PropertyPath): ReadonlySet<string> | undefined | null {
  switch (path.kind) {
    case 'aspect': {
      const aspect = registry.aspectOf(spec, path.aspect);
      return aspect ? new Set([aspect.name]) : null;
    }
    case 'structuredProperty':
      return spec.aspects.has('structuredProperties') ? new Set(['structuredProperties']) : null;
    case 'schemaFields':
    case 'schemaFields.length':
      return spec.aspects.has('schemaMetadata') ? new Set(['schemaMetadata', 'editableSchemaMetadata']) : null;
    case '__firstSynchronized':
    case 'urn':
    case 'entityType':
      // Every entity has its key aspect: enough to know it exists.
      return new Set([spec.keyAspect.name]);
    default:
      return undefined;
  }
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

/** How deep knownPaths goes into an aspect: deeper fields exist, but editors seldom want them offered. */
const KNOWN_DEPTH = 4;

/**
 * The property paths a rule may read on entities of these types, for an editor to offer: the
 * system paths, `schemaFields`, and each field of each versioned aspect (arrays flattened, down to
 * a URN, a map or KNOWN_DEPTH fields). Not every valid path: URN hops, map keys, lineage steps and
 * structured properties are left to the writer.
 */
export function knownPaths(registry: Registry, types: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const type of types) {
    const entity = registry.entityType(type);
    if (!entity) continue;
    for (const path of SYSTEM_PATHS) paths.add(path);
    if (entity.aspects.has('schemaMetadata')) paths.add('schemaFields').add('schemaFields.length');
    for (const aspect of entity.aspects.values()) {
      if (aspect.kind === 'versioned') addFieldPaths(registry, aspect.schema, aspect.name, 0, paths);
    }
  }
  return [...paths].sort();
}

function addFieldPaths(registry: Registry, schema: JsonSchema, at: string, depth: number, paths: Set<string>): void {
  let node = registry.deref(schema);
  while (node.type === 'array' && node.items) node = registry.deref(node.items);
  const fields = node.properties ? Object.entries(node.properties) : [];
  if (fields.length === 0 || node.format === 'urn' || node.urnType !== undefined || depth >= KNOWN_DEPTH) {
    paths.add(at);
    return;
  }
  for (const [name, field] of fields) addFieldPaths(registry, field, `${at}.${name}`, depth + 1, paths);
}
