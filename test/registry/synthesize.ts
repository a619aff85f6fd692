import type { JsonSchema, Registry } from '../../src/registry/registry.js';
import { formatUrn } from '../../src/urn/urn.js';

/**
 * Values made from the registry's schemas, for every aspect of DataHub's model: `minimal` gives the
 * required fields only, `full` every field (one item in each list, one entry in each map, each
 * union's first member, each enum's first symbol, URNs of the entity type a field names). They
 * are the registry's own reading of the model, so they test that what it accepts round-trips.
 */
export function synthesize(registry: Registry, schema: JsonSchema, mode: 'minimal' | 'full', depth = 0): unknown {
  const s = registry.deref(schema);
  if (depth > 12) return undefined;
  if (Array.isArray(s.oneOf)) {
    const member = (s.oneOf as JsonSchema[]).find((m) => m.type !== 'null') ?? (s.oneOf as JsonSchema[])[0];
    return synthesize(registry, member, mode, depth + 1);
  }
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      for (const [name, field] of Object.entries(s.properties ?? {})) {
        if (mode === 'minimal' && !required.has(name)) continue;
        const value = synthesize(registry, field, mode, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object' && mode === 'full') {
        const value = synthesize(registry, s.additionalProperties, mode, depth + 1);
        if (value !== undefined) out.key = value;
      }
      return out;
    }
    case 'array':
      return mode === 'full' && s.items ? [synthesize(registry, s.items, mode, depth + 1)].filter((v) => v !== undefined) : [];
    case 'string':
      if (s.format === 'urn') return urnOf(registry, [s.urnType ?? []].flat()[0] ?? 'corpuser', depth);
      if (s.format === 'uri') return 'https://example.com/synthesized';
      return 'synthesized';
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** A URN of the entity type, its key made from the key aspect's schema. */
export function urnOf(registry: Registry, entityType: string, depth = 0): string {
  const entity = registry.entityType(entityType);
  if (!entity) return `urn:li:${entityType}:synthesized`;
  const key = synthesize(registry, entity.keyAspect.schema, 'minimal', depth + 1) as Record<string, unknown>;
  const fields = entity.keyAspect.keyFields ?? [];
  return formatUrn(entity.name, fields.map((f) => String(key[f] ?? 'synthesized')));
}

/**
 * A value the aspect's schema refuses, and the field the refusal names: a required field left
 * out, or, for an aspect with none, a field it does not have.
 */
export function invalidOf(registry: Registry, schema: JsonSchema): { value: unknown; field: string } {
  const s = registry.deref(schema);
  const value = synthesize(registry, schema, 'minimal') as Record<string, unknown>;
  const required = (s.required as string[] | undefined) ?? [];
  if (required.length > 0) {
    const { [required[0]]: _, ...rest } = value;
    return { value: rest, field: required[0] };
  }
  return { value: { ...value, notAField: 1 }, field: 'notAField' };
}
