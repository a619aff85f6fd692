import type { Field, Json, NamedType, TypeExpr } from './pdl.js';

/**
 * PDL types as JSON Schema (draft-07, as the registry's Ajv reads it), in Rest.li's JSON form:
 * records are objects without other members, optional fields and fields with a default may be
 * left out, a union is an object of one member named by the member's type (`{"string": "x"}`,
 * `{"com.linkedin.schema.StringType": {}}`) or its alias, and URN typerefs carry the `urn` format
 * and, when typed, the entity type (`urnType`).
 */

export type Schema = { [key: string]: Json };

const REF = (name: string): Schema => ({ $ref: `types.json#/$defs/${name}` });

/**
 * Whether a typeref is a URN, and of which entity type: a class of `com.linkedin.common.urn` is
 * a URN; its TypedUrnValidator annotation names the entity type (used when it is one of the
 * registry's: MLModelUrn's says `model`, not `mlModel`).
 */
function urnOf(type: Extract<NamedType, { kind: 'typeref' }>, entityTypes: ReadonlySet<string>): { urn: boolean; entityType?: string } {
  const validate = type.annotations.validate as Record<string, { entityType?: string }> | undefined;
  const typed = validate?.['com.linkedin.common.validator.TypedUrnValidator']?.entityType;
  const javaClass = (type.annotations.java as { class?: string } | undefined)?.class;
  const urn = javaClass?.startsWith('com.linkedin.common.urn.') === true || type.name === 'com.linkedin.common.Urn';
  return urn && typed && entityTypes.has(typed) ? { urn, entityType: typed } : { urn };
}

export class SchemaWriter {
  /** Every named type reached, as its schema, by full name: types.json's $defs. */
  readonly defs = new Map<string, Schema>();

  constructor(
    private readonly types: ReadonlyMap<string, NamedType>,
    /** The registry's entity types: a typed URN names one of them. */
    private readonly entityTypes: ReadonlySet<string>,
  ) {}

  /** The schema of a type expression, defining the named types it reaches. */
  of(type: TypeExpr): Schema {
    switch (type.kind) {
      case 'primitive':
        return PRIMITIVE[type.name];
      case 'ref':
        this.define(type.name);
        return REF(type.name);
      case 'inline':
        this.define(type.def.name);
        return REF(type.def.name);
      case 'array':
        return { type: 'array', items: this.of(type.items) };
      case 'map':
        return { type: 'object', additionalProperties: this.of(type.values) };
      case 'union':
        return {
          oneOf: type.members.map((m): Schema => {
            if (m.type.kind === 'primitive' && m.type.name === 'null' && !m.alias) return { type: 'null' };
            const key = m.alias ?? this.memberKey(m.type);
            return { type: 'object', properties: { [key]: this.of(m.type) }, required: [key], additionalProperties: false };
          }),
        };
    }
  }

  /** Defines a named type (once), after the types it reaches. */
  define(name: string): void {
    if (this.defs.has(name)) return;
    const type = this.types.get(name);
    if (!type) throw new Error(`type ${name} is referred to but defined in no file read`);
    this.defs.set(name, {}); // a placeholder: recursive types refer to themselves
    this.defs.set(name, this.definition(type));
  }

  /**
   * A field's schema narrowed to the entity types its annotations name: `@UrnValidation`, or the
   * other end of a `@Relationship` (propertyDefinition's valueType is a dataType, an owner a
   * corpuser or corpGroup). A URN field, or a list of URNs ("/*"), gets `urnType`.
   */
  private withUrnValidation(schema: Schema, field: Field): Schema {
    const validation = (field.annotations.UrnValidation as { entityTypes?: string[] } | undefined)?.entityTypes;
    const relationship = field.annotations.Relationship as { entityTypes?: string[]; '/*'?: { entityTypes?: string[] } } | undefined;
    const named = validation ?? relationship?.entityTypes ?? relationship?.['/*']?.entityTypes;
    const types = named?.filter((t) => this.entityTypes.has(t));
    if (!types || types.length === 0) return schema;
    const urnType = types.length === 1 ? types[0] : types;
    const isUrn = (s: Schema): boolean => this.resolved(s).format === 'urn';
    if (isUrn(schema)) return { type: 'string', format: 'urn', urnType };
    if (schema.type === 'array' && isUrn(schema.items as Schema)) return { type: 'array', items: { type: 'string', format: 'urn', urnType } };
    return schema;
  }

  /** A schema with its `$ref`s into types.json followed. */
  private resolved(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) current = this.defs.get(current.$ref.replace('types.json#/$defs/', '')) ?? {};
    return current;
  }

  /**
   * A union member's key in Rest.li JSON: its type's full name, or the name of a primitive or
   * container; a typeref is followed first (a `DatasetUrn` member is keyed `string`).
   */
  private memberKey(type: TypeExpr): string {
    switch (type.kind) {
      case 'primitive':
        return type.name;
      case 'array':
        return 'array';
      case 'map':
        return 'map';
      case 'union':
        throw new Error('a union cannot be a member of a union');
      case 'ref':
      case 'inline': {
        const named = type.kind === 'ref' ? this.types.get(type.name) : type.def;
        return named?.kind === 'typeref' ? this.memberKey(named.ref) : (named?.name ?? (type as { name: string }).name);
      }
    }
  }

  /** A record's fields, those of the records it includes first. */
  fieldsOf(type: Extract<NamedType, { kind: 'record' }>): Field[] {
    const included = type.includes.flatMap((t) => {
      const target = t.kind === 'ref' ? this.types.get(t.name) : t.kind === 'inline' ? t.def : undefined;
      if (!target || target.kind !== 'record') throw new Error(`${type.name} includes ${JSON.stringify(t)}, which is not a record`);
      return this.fieldsOf(target);
    });
    return [...included, ...type.fields];
  }

  private definition(type: NamedType): Schema {
    switch (type.kind) {
      case 'record': {
        const fields = this.fieldsOf(type);
        const properties: Schema = {};
        for (const field of fields) properties[field.name] = this.withUrnValidation(this.of(field.type), field);
        const required = fields.filter((f) => !f.optional && f.default === undefined).map((f) => f.name);
        return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
      }
      case 'enum':
        return { type: 'string', enum: type.symbols };
      case 'fixed':
        return { type: 'string' };
      case 'typeref': {
        const base = this.of(type.ref);
        const urn = urnOf(type, this.entityTypes);
        if (!urn.urn) return base;
        return { type: 'string', format: 'urn', ...(urn.entityType ? { urnType: urn.entityType } : {}) };
      }
    }
  }
}

const PRIMITIVE: Record<string, Schema> = {
  string: { type: 'string' },
  bytes: { type: 'string' },
  int: { type: 'integer' },
  long: { type: 'integer' },
  float: { type: 'number' },
  double: { type: 'number' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
};

