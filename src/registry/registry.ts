import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { InvalidUrnError, ValidationError } from '../errors.js';
import { isUrn, type Urn } from '../urn/urn.js';
import { LARGE_VALUE_CHARS, LargeValueValidator } from './large-values.js';

/**
 * The entity registry: entity types, their key aspects and allowed aspects, and every aspect's JSON
 * Schema. It is data (src/registry/data): adding an aspect is adding a file and naming it in
 * entities.json, never editing code.
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
  /** The JSON Schema; `$ref`s point into common.json (see Registry.deref). */
  readonly schema: JsonSchema;
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

/** An entity every catalog starts with (data types, entity types, common platforms). */
export interface SeedEntity {
  urn: string;
  aspects: Record<string, unknown>;
}

interface AspectFile {
  name: string;
  pegasusClass?: string;
  template?: unknown;
  patchKeys?: Record<string, string[]>;
  patchKeysRequired?: Record<string, number>;
  key?: string[];
  schema: JsonSchema;
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
    private readonly commonDefs: Record<string, JsonSchema> = {},
  ) {
    for (const entity of entities) {
      this.entitiesByLowerName.set(entity.name.toLowerCase(), entity);
      for (const name of entity.aspects.keys()) this.lowerAspectNames.set(name.toLowerCase(), name);
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
    const common = readJson(join(dir, 'common.json')) as { $defs: Record<string, JsonSchema> };
    ajv.addSchema(common);

    const aspects = new Map<string, AspectSpec>();
    for (const file of readdirSync(join(dir, 'aspects')).filter((f) => f.endsWith('.json')).sort()) {
      const data = readJson(join(dir, 'aspects', file)) as AspectFile;
      if (`${data.name}.json` !== file) throw new Error(`registry: ${file} declares aspect ${data.name}`);
      let check: ValidateFunction | undefined;
      aspects.set(data.name, {
        name: data.name,
        pegasusClass: data.pegasusClass,
        template: data.template ?? {},
        patchKeys: data.patchKeys,
        patchKeysRequired: data.patchKeysRequired,
        keyFields: data.key,
        // Compiled on first use: compiling all of them took half a second of every start (and of
        // every worker thread's), most of it for aspects a process never writes.
        get check() {
          return (check ??= ajv.compile(data.schema));
        },
        schema: data.schema,
      });
    }

    const entities = (readJson(join(dir, 'entities.json')) as EntityFile[]).map((e): EntitySpec => {
      const lookup = (name: string): AspectSpec => {
        const spec = aspects.get(name);
        if (!spec) throw new Error(`registry: entity ${e.name} names unknown aspect ${name}`);
        return spec;
      };
      const keyAspect = lookup(e.keyAspect);
      if (!keyAspect.keyFields) throw new Error(`registry: ${e.keyAspect} has no key fields`);
      const allowed = new Map<string, AspectSpec>([[keyAspect.name, keyAspect]]);
      for (const name of e.aspects) allowed.set(name, lookup(name));
      return { name: e.name, keyAspect, aspects: allowed };
    });
    const registry = new Registry(entities, readJson(join(dir, 'seed.json')) as SeedEntity[], common.$defs);
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

  /** Follows a `$ref` into common.json (repeatedly); other schemas come back as they are. */
  deref(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; current.$ref && hops < 10; hops++) {
      current = this.commonDefs[current.$ref.replace('common.json#/$defs/', '')] ?? {};
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
    const parts = fields.length === 1 ? [urn.id] : urn.parts;
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
  const error = aspect.check.errors?.[0];
  return error ? describeError(error) : 'invalid';
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

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}
