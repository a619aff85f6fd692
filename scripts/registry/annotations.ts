import type { Json, NamedType, TypeExpr } from './pdl.js';
import type { SchemaWriter } from './schemas.js';

/** The field annotations the registry carries, as facts: the graph's edges, search, timeseries. */
export const CARRIED = ['Relationship', 'Searchable', 'TimeseriesField', 'TimeseriesFieldCollection'] as const;
export type Carried = (typeof CARRIED)[number];

/** An annotation at a path of an aspect's value: `upstreams/*\/dataset` (`*`: each item or map value). */
export type Placed = { path: string } & { [key: string]: Json };

/**
 * The carried annotations of an aspect, each at its path from the aspect's root. A field's
 * annotation applies to the field, or, when its members are paths (`{"/*\/tag": {…}}`), to those
 * paths below it, overriding what the types there say of themselves (DataHub's rule).
 */
export function placedAnnotations(root: Extract<NamedType, { kind: 'record' }>, types: ReadonlyMap<string, NamedType>, writer: SchemaWriter): Record<Carried, Placed[]> {
  const found = Object.fromEntries(CARRIED.map((name) => [name, [] as Placed[]])) as Record<Carried, Placed[]>;
  /** Annotations set from above, by name, then by path relative to the type being walked. */
  type Overrides = Partial<Record<Carried, Map<string, Json>>>;
  const visiting = new Set<string>();

  const place = (name: Carried, path: string[], value: Json) => {
    if (value === null) return; // an override of null takes the annotation away (assertions' embedded schemas)
    if (value && typeof value === 'object' && !Array.isArray(value)) found[name].push({ path: path.join('/'), ...value });
    else found[name].push({ path: path.join('/'), value });
  };

  /** The overrides that reach below a step (`*`, a field name), relative to it. */
  const below = (overrides: Overrides, step: string): Overrides => {
    const next: Overrides = {};
    for (const name of CARRIED) {
      const map = overrides[name];
      if (!map) continue;
      const inner = new Map<string, Json>();
      for (const [path, value] of map) if (path.startsWith(`/${step}/`)) inner.set(path.slice(step.length + 1), value);
      if (inner.size > 0) next[name] = inner;
    }
    return next;
  };

  const walkType = (type: TypeExpr, path: string[], overrides: Overrides): void => {
    switch (type.kind) {
      case 'primitive':
        return;
      case 'array':
        return walkAt(type.items, [...path, '*'], below(overrides, '*'), overrides, '/*');
      case 'map':
        return walkAt(type.values, [...path, '*'], below(overrides, '*'), overrides, '/*');
      case 'union':
        for (const m of type.members) {
          const key = m.alias ?? (m.type.kind === 'ref' ? m.type.name : m.type.kind === 'inline' ? m.type.def.name : m.type.kind === 'primitive' ? m.type.name : m.type.kind);
          walkAt(m.type, [...path, key], below(overrides, key), overrides, `/${key}`);
        }
        return;
      case 'ref':
      case 'inline': {
        const named = type.kind === 'ref' ? types.get(type.name) : type.def;
        if (!named) throw new Error(`type ${type.kind === 'ref' ? type.name : '?'} is defined in no file read`);
        if (named.kind === 'typeref') return walkType(named.ref, path, overrides);
        if (named.kind !== 'record' || visiting.has(named.name)) return;
        visiting.add(named.name);
        for (const field of writer.fieldsOf(named)) {
          const own: Overrides = below(overrides, field.name);
          const fieldPath = [...path, field.name];
          for (const name of CARRIED) {
            const set = overrides[name]?.get(`/${field.name}`);
            const value = set !== undefined ? set : field.annotations[name];
            if (value === undefined) continue;
            if (isPathKeyed(value)) {
              const map = own[name] ?? new Map<string, Json>();
              // What is set from above wins over the field's own paths.
              for (const [sub, v] of Object.entries(value as Record<string, Json>)) if (!map.has(sub)) map.set(sub, v);
              own[name] = map;
            } else {
              place(name, fieldPath, value);
            }
          }
          walkType(field.type, fieldPath, own);
        }
        visiting.delete(named.name);
        return;
      }
    }
  };

  /** An array's items or a map's values: an override of exactly that step applies to them. */
  const walkAt = (type: TypeExpr, path: string[], overridesBelow: Overrides, overrides: Overrides, step: string) => {
    for (const name of CARRIED) {
      const value = overrides[name]?.get(step);
      if (value !== undefined && !isPathKeyed(value)) place(name, path, value);
    }
    walkType(type, path, overridesBelow);
  };

  walkType({ kind: 'ref', name: root.name }, [], {});
  return found;
}

function isPathKeyed(value: Json): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('/'));
}
