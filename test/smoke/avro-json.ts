import type { JsonSchema, Registry } from '../../src/registry/registry.js';

/**
 * What DataHub's Python emitter makes of a record read from an MCE file, as urnbase's tests
 * need it: the file holds Avro JSON (`com.linkedin.pegasus2avro.*` names, optional fields
 * written either bare or wrapped in their type, `{"string": "x"}`, nulls), the SDK reads it into
 * its classes and sends Rest.li JSON (`com.linkedin.*` names, optional values bare, nulls
 * left out, a union's value always keyed by its member, a `fieldDiscriminator` union as its one
 * member). Guided by the registry's schema of each aspect, which says where the unions are.
 */

const AVRO_PREFIX = 'com.linkedin.pegasus2avro.';
const RESTLI_PREFIX = 'com.linkedin.';
/** The names Avro JSON wraps an optional value in, besides a record's full name. */
const AVRO_TYPES = new Set(['string', 'int', 'long', 'float', 'double', 'boolean', 'bytes', 'array', 'map']);

export function restliName(name: string): string {
  return name.startsWith(AVRO_PREFIX) ? RESTLI_PREFIX + name.slice(AVRO_PREFIX.length) : name;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a field of type `schema`, from Avro JSON to Rest.li JSON. */
export function avroToRestli(registry: Registry, schema: JsonSchema | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const s = schema ? registry.deref(schema) : undefined;
  if (!s) return renamed(value);
  if (Array.isArray(s.oneOf)) return unionValue(registry, s.oneOf as JsonSchema[], value);
  const bare = unwrapped(s, value);
  if (s.type === 'array' && Array.isArray(bare)) return bare.map((item) => avroToRestli(registry, s.items, item)).filter((v) => v !== undefined);
  if (s.type === 'object' && isObject(bare)) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(bare)) {
      const fieldSchema = s.properties?.[key] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
      const converted = avroToRestli(registry, fieldSchema, field);
      if (converted !== undefined) out[key] = converted;
    }
    return out;
  }
  return bare;
}

/** An optional value Avro JSON wrapped in its type (`{"string": "x"}`, `{"com.linkedin.pegasus2avro.common.AuditStamp": {…}}`). */
function unwrapped(s: JsonSchema, value: unknown): unknown {
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  const [key] = keys;
  if (s.type === 'object' && s.properties?.[key] !== undefined) return value;
  if (s.type === 'object' && !s.properties && key !== 'map') return value;
  if (AVRO_TYPES.has(key) || key.startsWith(AVRO_PREFIX)) return value[key];
  return value;
}

/** A union's value keyed by its member, as Rest.li writes it, whichever way the file wrote it. */
function unionValue(registry: Registry, members: JsonSchema[], value: unknown): unknown {
  const memberKeys = members.map((m) => (m.required as string[] | undefined)?.[0]).filter((k): k is string => k !== undefined);
  const memberSchema = (key: string) => members.find((m) => (m.required as string[] | undefined)?.[0] === key)?.properties?.[key];
  if (isObject(value)) {
    // A union of primitives with aliases: {"fieldDiscriminator": "costCode", "costCode": "x"}.
    if (typeof value.fieldDiscriminator === 'string') {
      const key = value.fieldDiscriminator;
      return { [key]: avroToRestli(registry, memberSchema(key), value[key]) };
    }
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const key = restliName(keys[0]);
      if (memberKeys.includes(key)) return { [key]: avroToRestli(registry, memberSchema(key), value[keys[0]]) };
    }
  }
  // A bare value: the member of its JSON type, as the SDK's reader picks it.
  const jsonType = Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value === 'object' ? 'object' : typeof value;
  for (const key of memberKeys) {
    const type = registry.deref(memberSchema(key) ?? {}).type;
    if (type === jsonType || (jsonType === 'number' && type === 'integer')) return { [key]: avroToRestli(registry, memberSchema(key), value) };
  }
  return renamed(value);
}

/** Without a schema: names renamed and nulls dropped, as pre_json_transform does. */
function renamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renamed);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== null) out[restliName(key)] = renamed(field);
  return out;
}
