import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { InvalidUrnError, ValidationError } from '../errors.js';
import { isUrn, type Urn } from '../urn/urn.js';
import { LARGE_VALUE_CHARS, LargeValueValidator } from './large-values.js';

/**
 * The entity registry: entity types, their key aspects and allowed aspects, and every aspect's JSON
 * Schema, relationships and searchable fields. It is data (src/registry/data), generated from
 * DataHub's model by scripts/registry (entities.json, types.json, aspects/), with hand-written
 * data beside it: patch templates (patches.json), aspects of DataHub's model newer than the
 * generated snapshot (overlay/), the seed and the search configuration. Never code.
 */

export interface AspectSpec {
  readonly name: string;
  /**
   * DataHub's Pegasus record name (`com.linkedin.dataset.DatasetProperties`): Rest.li keys an
   * aspect by it in versioned reads and in legacy snapshots.
   */
  readonly pegasusClass?: string;
  /** The value a JSON Patch starts from when the aspect does not exist yet. */
  readonly template: unknown;
  /**
   * The keys of its arrays, as DataHub's patch template for the aspect has them: array field name →
   * its items' key fields (none: strings, each its own key). A patch without arrayPrimaryKeys uses them.
   */
  readonly patchKeys?: Readonly<Record<string, readonly string[]>>;
  /**
   * How many of an array's patchKeys a path must give (all when absent): DataHub added the later
   * ones (typeUrn, attribution.source) to its templates after older SDKs' paths stopped before them.
   */
  readonly patchKeysRequired?: Readonly<Record<string, number>>;
  /** For key aspects: the key fields, in the order of the URN's id parts. */
  readonly keyFields?: readonly string[];
  readonly check: ValidateFunction;
  /** The JSON Schema; `$ref`s point into types.json (see Registry.deref). */
  readonly schema: JsonSchema;
  /** Versioned (every value kept as a version) or timeseries (points in time, appended). */
  readonly kind: 'versioned' | 'timeseries';
  /** The graph edges its values hold (DataHub's `@Relationship`), by path. */
  readonly relationships: readonly Relationship[];
  /** Its searchable fields (DataHub's `@Searchable`), by path. */
  readonly searchable: readonly SearchableField[];
}

/** A path into an aspect's value, `/`-separated, `*` for each item of an array or value of a map. */
export type ValuePath = string;

/** An edge an aspect's value names: its field's path, the edge's name and the types at its other end. */
export interface Relationship {
  readonly path: ValuePath;
  readonly name: string;
  readonly entityTypes: readonly string[];
  readonly isLineage?: boolean;
  /** False when the edge points downstream (DataHub's `isUpstream`; upstream by default). */
  readonly isUpstream?: boolean;
  readonly [more: string]: unknown;
}

/** A searchable field of an aspect: where its values are and how DataHub indexes them. */
export interface SearchableField {
  readonly path: ValuePath;
  readonly fieldName?: string;
  readonly fieldType?: string;
  readonly [more: string]: unknown;
}

/** The subset of JSON Schema the registry's data files use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  format?: string;
  urnType?: string | string[];
  $ref?: string;
  [keyword: string]: unknown;
}

export interface EntitySpec {
  readonly name: string;
  readonly keyAspect: AspectSpec;
  /** Every aspect the type allows, the key aspect included, by canonical name. */
  readonly aspects: ReadonlyMap<string, AspectSpec>;
}

/**
 * A Rest.li snapshot record (`com.linkedin.metadata.snapshot.DatasetSnapshot`): the entity type it
 * holds and the aspects its union may carry, in the union's order (key aspect first).
 */
export interface SnapshotSpec {
  readonly name: string;
  readonly entity: EntitySpec;
  readonly aspects: readonly AspectSpec[];
}

/** An entity every catalog starts with (data types, entity types, common platforms). */
export interface SeedEntity {
  urn: string;
  aspects: Record<string, unknown>;
}

interface AspectFile {
  name: string;
  pegasusClass?: string;
  type?: 'timeseries';
  key?: string[];
  schema: JsonSchema;
  relationships?: Relationship[];
  searchable?: SearchableField[];
}

/** patches.json: what DataHub's patch templates say of an aspect. */
interface PatchFacts {
  template?: unknown;
  patchKeys?: Record<string, string[]>;
  patchKeysRequired?: Record<string, number>;
}

/** snapshots.json: snapshot record name → the entity type it holds and its aspect records. */
interface SnapshotFile {
  snapshots: Record<string, { entityType: string; aspects: string[] }>;
}

interface EntityFile {
  name: string;
  keyAspect: string;
  aspects: string[];
}

// Compiled output lives in dist/src/registry; the data files stay in the source tree.
/** The entity types whose seeded entities are the catalog's own definitions (isBuiltIn). */
const BUILT_IN_TYPES = new Set(['dataType', 'entityType']);

const DATA_DIR = fileURLToPath(new URL('../../../src/registry/data/', import.meta.url));

export class Registry {
  private readonly entitiesByLowerName = new Map<string, EntitySpec>();
  private readonly lowerAspectNames = new Map<string, string>();
  private readonly snapshotsByName = new Map<string, SnapshotSpec>();
  private readonly snapshotsByEntity = new Map<EntitySpec, SnapshotSpec>();
  /** URNs whose key has been checked (see checkKey). */
  private readonly validKeys = new WeakSet<Urn>();
  private builtIns?: Set<string>;
  private largeValues?: LargeValueValidator;
  /** Where the data files were read from (the validation thread reads them too); none for a registry made in code. */
  private dataDir?: string;

  constructor(
    entities: readonly EntitySpec[],
    /** Seed entities from data/seed.json; entityType entities are derived from the types. */
    private readonly seedData: readonly SeedEntity[] = [],
    private readonly typeDefs: Record<string, JsonSchema> = {},
    snapshots: SnapshotFile['snapshots'] = {},
  ) {
    for (const entity of entities) {
      this.entitiesByLowerName.set(entity.name.toLowerCase(), entity);
      for (const name of entity.aspects.keys()) this.lowerAspectNames.set(name.toLowerCase(), name);
    }
    for (const [name, { entityType, aspects }] of Object.entries(snapshots)) {
      const entity = this.entityType(entityType);
      if (!entity) throw new Error(`registry: snapshot ${name} holds unknown entity type ${entityType}`);
      const members = aspects.map((pegasusClass) => {
        const aspect = this.aspectByPegasusClass(entity, pegasusClass);
        if (!aspect) throw new Error(`registry: snapshot ${name} carries ${pegasusClass}, which is no aspect of entity type ${entityType}`);
        return aspect;
      });
      if (members[0] !== entity.keyAspect) throw new Error(`registry: snapshot ${name} must carry ${entity.keyAspect.name} first`);
      if (this.snapshotsByEntity.has(entity)) throw new Error(`registry: entity type ${entityType} has two snapshots`);
      const spec = { name, entity, aspects: members };
      this.snapshotsByName.set(name, spec);
      this.snapshotsByEntity.set(entity, spec);
    }
  }

  static load(dir: string = DATA_DIR): Registry {
    // verbose: errors carry their schema, so urnType failures can name the expected entity type.
    // Not allErrors: Ajv joins each $ref'd item's errors onto the list by copying it, so 60,000
    // invalid array items (a 270 KB body) took minutes of CPU; the first error is the answer.
    const ajv = new Ajv({ strict: true, allErrors: false, verbose: true });
    ajv.addFormat('urn', { type: 'string', validate: (s: string) => isUrn(s) });
    ajv.addFormat('uri', { type: 'string', validate: (s: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/.test(s) });
    ajv.addKeyword({
      keyword: 'urnType',
      schemaType: ['string', 'array'],
      errors: false,
      validate: (types: string | string[], data: unknown) => typeof data !== 'string' || isUrn(data, types),
    });
    const types = readJson(join(dir, 'types.json')) as { $defs: Record<string, JsonSchema> };
    extendTypes(types.$defs, (readJson(join(dir, 'overlay', 'types.json')) as { types: Record<string, TypeAdditions> }).types);
    ajv.addSchema(types);
    const patches = (readJson(join(dir, 'patches.json')) as { aspects: Record<string, PatchFacts> }).aspects;

    const aspects = new Map<string, AspectSpec>();
    const files = [
      ...readdirSync(join(dir, 'aspects')).map((f) => join(dir, 'aspects', f)),
      ...readdirSync(join(dir, 'overlay')).filter((f) => f !== 'entities.json' && f !== 'types.json').map((f) => join(dir, 'overlay', f)),
    ].filter((f) => f.endsWith('.json'));
    for (const file of files.sort()) {
      const data = readJson(file) as AspectFile;
      if (!file.endsWith(`/${data.name}.json`)) throw new Error(`registry: ${file} declares aspect ${data.name}`);
      if (aspects.has(data.name)) throw new Error(`registry: aspect ${data.name} is defined twice`);
      const patch = patches[data.name] ?? {};
      let check: ValidateFunction | undefined;
      aspects.set(data.name, {
        name: data.name,
        pegasusClass: data.pegasusClass,
        template: patch.template ?? {},
        patchKeys: patch.patchKeys,
        patchKeysRequired: patch.patchKeysRequired,
        keyFields: data.key,
        // Compiled on first use: compiling all of them took half a second of every start (and of
        // every worker thread's), most of it for aspects a process never writes.
        get check() {
          return (check ??= ajv.compile(data.schema));
        },
        schema: data.schema,
        kind: data.type === 'timeseries' ? 'timeseries' : 'versioned',
        relationships: data.relationships ?? [],
        searchable: data.searchable ?? [],
      });
    }
    for (const name of Object.keys(patches)) if (!aspects.has(name)) throw new Error(`registry: patches.json names unknown aspect ${name}`);

    const added = (readJson(join(dir, 'overlay', 'entities.json')) as { aspects: Record<string, string[]> }).aspects;
    const listed = (readJson(join(dir, 'entities.json')) as { entities: EntityFile[] }).entities;
    const entities = listed.map((e): EntitySpec => {
      const lookup = (name: string): AspectSpec => {
        const spec = aspects.get(name);
        if (!spec) throw new Error(`registry: entity ${e.name} names unknown aspect ${name}`);
        return spec;
      };
      const keyAspect = lookup(e.keyAspect);
      if (!keyAspect.keyFields) throw new Error(`registry: ${e.keyAspect} has no key fields`);
      const allowed = new Map<string, AspectSpec>([[keyAspect.name, keyAspect]]);
      for (const name of [...e.aspects, ...(added[e.name] ?? [])]) allowed.set(name, lookup(name));
      return { name: e.name, keyAspect, aspects: allowed };
    });
    for (const name of Object.keys(added)) if (!listed.some((e) => e.name === name)) throw new Error(`registry: overlay/entities.json names unknown entity type ${name}`);
    const snapshots = (readJson(join(dir, 'snapshots.json')) as SnapshotFile).snapshots;
    const registry = new Registry(entities, readJson(join(dir, 'seed.json')) as SeedEntity[], types.$defs, snapshots);
    registry.dataDir = dir;
    return registry;
  }

  /**
   * Whether an entity is one of the catalog's own definitions (a seeded data type or entity type):
   * structured properties are typed by them, so they are written at bootstrap only, never changed
   * or deleted through the API (deleting datahub.date failed every date property until a restart).
   */
  isBuiltIn(urn: Urn): boolean {
    if (!BUILT_IN_TYPES.has(urn.entityType)) return false;
    this.builtIns ??= new Set(this.seed().map((s) => s.urn));
    return this.builtIns.has(urn.text);
  }

  /** What a new catalog is bootstrapped with: seed.json plus one entityType per registered type. */
  seed(): SeedEntity[] {
    const entityTypes = this.entityTypes().map((e) => ({
      urn: `urn:li:entityType:datahub.${e.name}`,
      aspects: {
        entityTypeInfo: { qualifiedName: `datahub.${e.name}`, displayName: e.name[0].toUpperCase() + e.name.slice(1) },
      },
    }));
    return [...this.seedData, ...entityTypes];
  }

  entityTypes(): EntitySpec[] {
    return [...this.entitiesByLowerName.values()];
  }

  /** Entity type by name, case-insensitively (DataHub lower-cases registry names). */
  entityType(name: string): EntitySpec | undefined {
    return this.entitiesByLowerName.get(name.toLowerCase());
  }

  /** The entity type of a URN; an unknown type makes the URN invalid. */
  entityOf(urn: Urn): EntitySpec {
    const spec = this.entityType(urn.entityType);
    if (!spec) throw new InvalidUrnError(urn.text, `unknown entity type ${urn.entityType}`);
    return spec;
  }

  /** An aspect of an entity type by its canonical name, or its all-lowercase spelling. */
  aspectOf(entity: EntitySpec, name: string): AspectSpec | undefined {
    return entity.aspects.get(name) ?? entity.aspects.get(this.lowerAspectNames.get(name) ?? '');
  }

  /** The aspect of an entity type whose Pegasus record name is `pegasusClass`. */
  aspectByPegasusClass(entity: EntitySpec, pegasusClass: string): AspectSpec | undefined {
    for (const aspect of entity.aspects.values()) if (aspect.pegasusClass === pegasusClass) return aspect;
    return undefined;
  }

  /** A snapshot record by its full name (`com.linkedin.metadata.snapshot.DatasetSnapshot`). */
  snapshot(name: string): SnapshotSpec | undefined {
    return this.snapshotsByName.get(name);
  }

  /** The snapshot record that holds entities of the type, if DataHub has one for it. */
  snapshotOf(entity: EntitySpec): SnapshotSpec | undefined {
    return this.snapshotsByEntity.get(entity);
  }

  snapshots(): SnapshotSpec[] {
    return [...this.snapshotsByName.values()];
  }

  /** Follows a `$ref` into types.json (repeatedly); other schemas come back as they are. */
  deref(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; current.$ref && hops < 10; hops++) {
      current = this.typeDefs[current.$ref.replace('types.json#/$defs/', '')] ?? {};
    }
    return current;
  }

  /**
   * Throws InvalidUrnError unless the URN carries a valid key of its entity type. Parsed URNs are
   * shared (parseUrn keeps the recent ones), so each is checked once, not on every request.
   */
  checkKey(urn: Urn, entity: EntitySpec): void {
    if (this.validKeys.has(urn)) return;
    this.keyOf(urn, entity);
    this.validKeys.add(urn);
  }

  /** The key aspect value derived from the URN; a key that breaks its schema makes the URN invalid. */
  keyOf(urn: Urn, entity: EntitySpec = this.entityOf(urn)): Record<string, string> {
    const fields = entity.keyAspect.keyFields ?? [];
    // As DataHub's EntityKeyUtils: a tuple id has one part per key field, a bare id is one part.
    const parts = urn.parts;
    if (parts.length !== fields.length) throw new InvalidUrnError(urn.text, `expected ${fields.length} key parts`);
    const key: Record<string, string> = {};
    fields.forEach((field, i) => (key[field] = parts[i]));
    if (!entity.keyAspect.check(key)) throw new InvalidUrnError(urn.text, describe(entity.keyAspect));
    return key;
  }

  /** Throws a ValidationError naming the aspect and the offending field. */
  validate(aspect: AspectSpec, value: unknown): void {
    if (!aspect.check(value)) throw new ValidationError(`Aspect ${aspect.name} is invalid: ${describe(aspect)}`);
  }

  /**
   * The same, for the write path: a large value (its JSON text `json`, LARGE_VALUE_CHARS or more)
   * is checked on the validation thread, so that the event loop is not held meanwhile.
   */
  async validateWritten(entity: EntitySpec, aspect: AspectSpec, value: unknown, json: string): Promise<void> {
    if (json.length < LARGE_VALUE_CHARS || !this.dataDir) return this.validate(aspect, value);
    this.largeValues ??= new LargeValueValidator(this.dataDir);
    await this.largeValues.validate(entity.name, aspect.name, json);
  }
}

function describe(aspect: AspectSpec): string {
  const errors = aspect.check.errors ?? [];
  const union = errors.find((e) => e.keyword === 'oneOf');
  if (union) return describeUnion(union, errors);
  return errors[0] ? describeError(errors[0]) : 'invalid';
}

/**
 * A union that matched none of its members (Rest.li JSON: an object of exactly one member named
 * by its type). When the value names a member, what is wrong inside it; otherwise which members
 * there are. Ajv's first error would be the first member's, whichever the value meant.
 */
function describeUnion(union: ErrorObject, errors: readonly ErrorObject[]): string {
  const at = fieldPath(union.instancePath);
  const members = ((union.schema as Array<{ required?: string[]; type?: string }>) ?? []).map((m) => m.required?.[0] ?? m.type ?? '?');
  const data = union.data;
  const keys = data && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : undefined;
  if (keys?.length === 1 && members.includes(keys[0])) {
    const inside = errors.find((e) => e.instancePath.startsWith(`${union.instancePath}/${keys[0].replace(/~/g, '~0').replace(/\//g, '~1')}`));
    if (inside) return describeError(inside);
  }
  const list = members.join(', ');
  if (!keys) return `field ${at || '(root)'} must be an object naming one of the union's members: ${list}`;
  if (keys.length !== 1) return `field ${at || '(root)'} must name exactly one of the union's members (${list}), not ${keys.length}`;
  return `field ${at || '(root)'} names ${keys[0]}, which is not one of the union's members: ${list}`;
}

function describeError(error: ErrorObject): string {
  const at = fieldPath(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return `field ${join2(at, String(error.params.missingProperty))} is required`;
    case 'additionalProperties':
      return `field ${join2(at, String(error.params.additionalProperty))} is not allowed`;
    case 'urnType':
      return `field ${at || '(root)'} must be a URN of type ${[error.schema].flat().join(' or ')}`;
    case 'format':
      return `field ${at || '(root)'} must be a valid ${error.params.format}`;
    case 'enum':
      return `field ${at || '(root)'} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `field ${at || '(root)'} ${error.message ?? 'is invalid'}`;
  }
}

/** `/tags/0/tag` → `tags[0].tag` */
function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, seg) => (/^\d+$/.test(seg) ? `${path}[${seg}]` : path ? `${path}.${seg}` : seg), '');
}

function join2(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

/** overlay/types.json: what DataHub's newer model adds to a generated type (symbols, optional fields, defaults that make fields optional). */
interface TypeAdditions {
  symbols?: string[];
  fields?: Record<string, JsonSchema>;
  optional?: string[];
}

function extendTypes(defs: Record<string, JsonSchema>, additions: Record<string, TypeAdditions>): void {
  for (const [name, add] of Object.entries(additions)) {
    const type = defs[name];
    if (!type) throw new Error(`registry: overlay/types.json extends unknown type ${name}`);
    if (add.symbols) {
      if (!Array.isArray(type.enum)) throw new Error(`registry: overlay/types.json gives symbols to ${name}, which is not an enum`);
      type.enum = [...new Set([...(type.enum as string[]), ...add.symbols])];
    }
    if (add.fields) {
      if (!type.properties) throw new Error(`registry: overlay/types.json gives fields to ${name}, which is not a record`);
      type.properties = { ...type.properties, ...add.fields };
    }
    if (add.optional) {
      const required = (type.required as string[] | undefined) ?? [];
      for (const field of add.optional) if (!required.includes(field)) throw new Error(`registry: overlay/types.json makes ${name}.${field} optional, which is not required`);
      const left = required.filter((f) => !add.optional!.includes(f));
      if (left.length > 0) type.required = left;
      else delete type.required;
    }
  }
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}
