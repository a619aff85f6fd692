import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Registry } from '../registry/registry.js';
import type { TextColumn } from '../store/search-types.js';
import { annotatedFields, type AnnotatedField, type FieldType } from './annotated.js';

export type { FieldType };

/**
 * The searchable fields and the aspects that feed them: those of src/registry/data/search.json
 * (hand-written: how urnbase has always indexed names, descriptions, tags, owners, …), then those
 * DataHub's model declares searchable (annotated.ts) where they add to them. Changing what is
 * indexed is editing that file or regenerating the registry; either changes the index's version.
 */


export interface SearchField {
  name: string;
  type: FieldType;
  /** Text fields that also keep their whole value (lower-cased) as a keyword, for exact and prefix matches and sorting. */
  keyword: boolean;
  sortable: boolean;
  /** An entity has at most one value of it (its source is a single value, not a list). */
  single: boolean;
  /** For URN fields: the entity types of the URNs, so `tags:pii` can mean `urn:li:tag:pii`. */
  entityTypes: string[];
  /** Where the field's words go in the full-text index. */
  column: TextColumn;
  /** Declared by DataHub's model only (not by search.json). */
  fromModel: boolean;
}

interface SearchFile {
  version: number;
  fields: Record<string, { type: FieldType; keyword?: boolean; sortable?: boolean; single?: boolean; entityTypes?: string[] }>;
  sources: Record<string, Record<string, string>>;
}

/** A field an aspect feeds, and the path of its values inside the aspect. */
export interface FieldSource {
  field: SearchField;
  path: readonly string[];
  /** Its words also go to the free text (a text field's always do: its filter matches them). */
  fullText: boolean;
}

const FILE = fileURLToPath(new URL('../../../src/registry/data/search.json', import.meta.url));
const TEXT_COLUMN: Record<string, TextColumn> = { name: 'name', qualifiedName: 'qualifiedName', description: 'description', fieldPaths: 'fieldPaths' };

export class SearchFields {
  /** Changes whenever what is indexed does: search.json's version and the generated fields. */
  readonly version: string;
  private readonly fields = new Map<string, SearchField>();
  private readonly sources = new Map<string, FieldSource[]>();
  /** `hasOwners` → `owners`: a boolean filter on whether an entity has a value of the field. */
  private readonly presence = new Map<string, string>();
  /** DataHub's names for fields search.json names otherwise (`typeNames` → `subtypes`), and its aliases (`_entityName` → `name`). */
  private readonly aliases = new Map<string, string>();

  constructor(file: SearchFile, registry: Registry, annotated: readonly AnnotatedField[] = annotatedFields(registry)) {
    for (const [name, f] of Object.entries(file.fields)) {
      this.fields.set(name, {
        name,
        type: f.type,
        keyword: f.type !== 'text' || f.keyword === true,
        sortable: f.sortable === true,
        single: f.single === true,
        entityTypes: f.entityTypes ?? [],
        column: TEXT_COLUMN[name] ?? 'keywords',
        fromModel: false,
      });
    }
    for (const [aspect, mapping] of Object.entries(file.sources)) {
      this.sources.set(
        aspect,
        Object.entries(mapping).map(([name, path]) => {
          const field = this.fields.get(name);
          if (!field) throw new Error(`search.json: ${aspect} feeds unknown field ${name}`);
          return { field, path: path.split('.'), fullText: true };
        }),
      );
    }
    checkOneKeywordSource(this, registry);
    this.adopt(annotated, registry);
    checkOneKeywordSource(this, registry);
    this.version = `${file.version}.${fingerprint(this.fields, this.sources)}`;
  }

  static load(registry: Registry): SearchFields {
    return new SearchFields(JSON.parse(readFileSync(FILE, 'utf8')) as SearchFile, registry);
  }

  /** A field by its name, or by another name DataHub gives it. */
  field(name: string): SearchField | undefined {
    return this.fields.get(name) ?? this.fields.get(this.aliases.get(name) ?? '');
  }

  all(): SearchField[] {
    return [...this.fields.values()];
  }

  /** The fields an aspect feeds (none for most aspects). */
  sourcesOf(aspect: string): readonly FieldSource[] {
    return this.sources.get(aspect) ?? [];
  }

  /** The aspects that feed the index (besides key aspects and structuredProperties). */
  indexedAspects(): string[] {
    return [...this.sources.keys()];
  }

  /** The field a presence filter (`hasOwners`) is about, if the name is one. */
  presenceOf(name: string): SearchField | undefined {
    const field = this.presence.get(name);
    return field === undefined ? undefined : this.fields.get(field);
  }

  /**
   * Adds the fields DataHub's model declares searchable, where they add to search.json: a source
   * whose aspect and path search.json indexes already is left out, as is one of another kind than
   * the field of its name has, or one that would make two aspects of an entity type feed one
   * keyword field (its rows would be removed by the other's writes); the first in the registry's
   * order stays. A new field's words go to the full-text column its name suggests.
   */
  private adopt(annotated: readonly AnnotatedField[], registry: Registry): void {
    const holders = aspectHolders(registry);
    const feeders = keywordFeeders(this, holders);
    const declared = new Set(this.fields.keys());
    const many = new Set<string>();
    for (const a of annotated) {
      const own = this.sources.get(a.aspect) ?? [];
      const same = own.find((s) => s.path.join('.') === a.path);
      if (same) this.alias(a, same.field);
      if (same || own.some((s) => declared.has(s.field.name) && s.field.name === a.name)) continue;
      let field = this.fields.get(a.name);
      if (field && field.type !== a.type) continue;
      const keyword = field ? field.keyword : a.type !== 'text';
      if (keyword && (holders.get(a.aspect) ?? []).some((entity) => (feeders.get(`${entity}\u0000${a.name}`) ?? a.aspect) !== a.aspect)) continue;
      if (!field) {
        field = { name: a.name, type: a.type, keyword, sortable: false, single: true, entityTypes: [], column: columnFor(a.name, a.type), fromModel: true };
        this.fields.set(a.name, field);
      }
      if (!declared.has(a.name)) {
        if (a.many || own.some((s) => s.field === field)) many.add(a.name);
        for (const t of a.entityTypes) if (!field.entityTypes.includes(t)) field.entityTypes.push(t);
      }
      if (keyword) for (const entity of holders.get(a.aspect) ?? []) feeders.set(`${entity}\u0000${a.name}`, a.aspect);
      this.sources.set(a.aspect, [...own, { field, path: a.path.split('.'), fullText: a.fullText || a.type === 'text' }]);
      this.alias(a, field);
    }
    for (const name of [...this.aliases.keys(), ...this.presence.keys()]) {
      if (this.fields.has(name)) {
        this.aliases.delete(name);
        this.presence.delete(name);
      }
    }
    // A field fed from one place of one aspect per entity has at most one value per entity.
    for (const name of many) this.fields.get(name)!.single = false;
    for (const f of this.fields.values()) if (!declared.has(f.name) && f.single) f.single = singleSource(this, f, holders);
  }

  /** The other names of an annotated source's field: DataHub's own name for it, its aliases, its presence filter; the first use of a name stays. */
  private alias(a: AnnotatedField, field: SearchField): void {
    for (const name of [a.name, ...a.aliases]) if (name !== field.name && !this.aliases.has(name)) this.aliases.set(name, field.name);
    if (a.hasValuesName && !this.presence.has(a.hasValuesName)) this.presence.set(a.hasValuesName, field.name);
  }
}

/** The entity types that hold each aspect. */
function aspectHolders(registry: Registry): Map<string, string[]> {
  const holders = new Map<string, string[]>();
  for (const entity of registry.entityTypes()) {
    for (const aspect of entity.aspects.keys()) holders.set(aspect, [...(holders.get(aspect) ?? []), entity.name]);
  }
  return holders;
}

/** Which aspect feeds each keyword field of each entity type (`dataset\u0000tags` → `globalTags`). */
function keywordFeeders(fields: SearchFields, holders: ReadonlyMap<string, string[]>): Map<string, string> {
  const feeders = new Map<string, string>();
  for (const aspect of fields.indexedAspects()) {
    for (const { field } of fields.sourcesOf(aspect)) {
      if (field.keyword) for (const entity of holders.get(aspect) ?? []) feeders.set(`${entity}\u0000${field.name}`, aspect);
    }
  }
  return feeders;
}

/** A text field fed by several aspects of one entity type may hold several values. */
function singleSource(fields: SearchFields, field: SearchField, holders: ReadonlyMap<string, string[]>): boolean {
  const fedBy = new Map<string, number>();
  for (const aspect of fields.indexedAspects()) {
    if (!fields.sourcesOf(aspect).some((s) => s.field === field)) continue;
    for (const entity of holders.get(aspect) ?? []) {
      const n = (fedBy.get(entity) ?? 0) + 1;
      if (n > 1) return false;
      fedBy.set(entity, n);
    }
  }
  return true;
}

/** Where a generated text field's words go: descriptions with descriptions, names with names. */
function columnFor(name: string, type: FieldType): TextColumn {
  if (type !== 'text') return 'keywords';
  if (/description|definition/i.test(name)) return 'description';
  if (/^field(Path|Label)/.test(name)) return 'fieldPaths';
  if (/(Name|^title)$/.test(name)) return 'name';
  return 'keywords';
}

/** A short digest of what is indexed, so that a change of it rebuilds the index. */
function fingerprint(fields: ReadonlyMap<string, SearchField>, sources: ReadonlyMap<string, FieldSource[]>): string {
  const text = JSON.stringify([[...fields.values()], [...sources].map(([aspect, list]) => [aspect, list.map((s) => [s.field.name, s.path, s.fullText])])]);
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/**
 * Keyword rows are changed by difference between an aspect's old and new values, so two aspects
 * of one entity must never feed the same keyword field: one would remove the other's rows.
 */
function checkOneKeywordSource(fields: SearchFields, registry: Registry): void {
  for (const entity of registry.entityTypes()) {
    const fedBy = new Map<string, string>();
    for (const aspect of entity.aspects.keys()) {
      for (const { field } of fields.sourcesOf(aspect)) {
        if (!field.keyword) continue;
        const other = fedBy.get(field.name);
        if (other && other !== aspect) throw new Error(`search.json: ${entity.name}'s keyword field ${field.name} is fed by both ${other} and ${aspect}`);
        fedBy.set(field.name, aspect);
      }
    }
  }
}
