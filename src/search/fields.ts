import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Registry } from '../registry/registry.js';
import type { TextColumn } from '../store/search-types.js';

/**
 * The searchable fields and the aspects that feed them, from src/registry/data/search.json.
 * Adding a field or a source is editing that file.
 */

export type FieldType = 'text' | 'urn' | 'keyword' | 'boolean';

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
}

const FILE = fileURLToPath(new URL('../../../src/registry/data/search.json', import.meta.url));
const TEXT_COLUMN: Record<string, TextColumn> = { name: 'name', qualifiedName: 'qualifiedName', description: 'description', fieldPaths: 'fieldPaths' };

export class SearchFields {
  readonly version: number;
  private readonly fields = new Map<string, SearchField>();
  private readonly sources = new Map<string, FieldSource[]>();

  constructor(file: SearchFile, registry: Registry) {
    this.version = file.version;
    for (const [name, f] of Object.entries(file.fields)) {
      this.fields.set(name, {
        name,
        type: f.type,
        keyword: f.type !== 'text' || f.keyword === true,
        sortable: f.sortable === true,
        single: f.single === true,
        entityTypes: f.entityTypes ?? [],
        column: TEXT_COLUMN[name] ?? 'keywords',
      });
    }
    for (const [aspect, mapping] of Object.entries(file.sources)) {
      this.sources.set(
        aspect,
        Object.entries(mapping).map(([name, path]) => {
          const field = this.fields.get(name);
          if (!field) throw new Error(`search.json: ${aspect} feeds unknown field ${name}`);
          return { field, path: path.split('.') };
        }),
      );
    }
    checkOneKeywordSource(this, registry);
  }

  static load(registry: Registry): SearchFields {
    return new SearchFields(JSON.parse(readFileSync(FILE, 'utf8')) as SearchFile, registry);
  }

  field(name: string): SearchField | undefined {
    return this.fields.get(name);
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
        if (other) throw new Error(`search.json: ${entity.name}'s keyword field ${field.name} is fed by both ${other} and ${aspect}`);
        fedBy.set(field.name, aspect);
      }
    }
  }
}
