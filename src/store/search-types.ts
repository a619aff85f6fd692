import type { EdgeKind } from './graph-types.js';

/**
 * The search index as the store sees it: what the write path asks it to change, and the resolved
 * queries the search service asks it to answer. Both are store-neutral; each store turns them into
 * its own tables and SQL (SQLite: FTS5 and narrow keyword and number tables).
 */

/** The full-text columns of the index. */
export type TextColumn = 'name' | 'qualifiedName' | 'description' | 'fieldPaths' | 'keywords';
export const TEXT_COLUMNS: readonly TextColumn[] = ['name', 'qualifiedName', 'description', 'fieldPaths', 'keywords'];

/** What one aspect contributes to its entity's index entries. */
export interface AspectIndex {
  /** Exact values by field (keyword fields, lower-cased names, structured-property strings). */
  terms: Array<[field: string, value: string]>;
  /** Numeric values by field (structured-property numbers and dates as epoch millis). */
  numbers: Array<[field: string, value: number]>;
  /** The aspect's full-text document, by column (absent: it has none). */
  text?: Partial<Record<TextColumn, string>>;
}

/**
 * A change of one aspect's index entries, written in the same transaction as the aspect: only
 * what differs between its old and new entries.
 */
export interface IndexWrite {
  urn: string;
  aspect: string;
  /** The entity's key aspect: its row's id numbers the entity's full-text document. */
  keyAspect: string;
  removeTerms: Array<[string, string]>;
  addTerms: Array<[string, string]>;
  removeNumbers: Array<[string, number]>;
  addNumbers: Array<[string, number]>;
  /** The new full-text document: null removes it, undefined leaves it as it is. */
  text?: Partial<Record<TextColumn, string>> | null;
}

export type StringOp = 'eq' | 'prefix' | 'suffix' | 'contains';
export type CompareOp = 'gt' | 'gte' | 'lt' | 'lte';

/**
 * A resolved condition on entities: fields are index fields, values are what is stored. `unique`:
 * an entity has at most one value of the field (a name, a single-valued property), so entities
 * are counted by counting values.
 */
export type Condition =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'and' | 'or'; children: Condition[] }
  | { kind: 'not'; child: Condition }
  /** The entity's own URN. */
  | { kind: 'urn'; op: StringOp; values: string[] }
  /** A keyword field: any stored value matching any given one. */
  | { kind: 'term'; field: string; op: StringOp | CompareOp; values: string[]; unique?: boolean }
  | { kind: 'number'; field: string; op: 'eq' | CompareOp; value: number; unique?: boolean }
  /** The field has some value. */
  | { kind: 'exists'; field: string }
  | NeighbourCondition
  | TextCondition;

/**
 * A neighbour in the graph, read from the edges table (not the index, so it is the graph the
 * relationship and lineage APIs read): the entity has a neighbour one edge away, by an edge of
 * `sides`, whose URN matches (`exists`: any). A soft-deleted neighbour counts only with
 * `removedNeighbours`.
 */
export interface NeighbourCondition {
  kind: 'neighbour';
  sides: NeighbourSides;
  op: StringOp | 'exists';
  values: string[];
  removedNeighbours: boolean;
}

/** Which edges lead to a neighbour: out of the entity (to their destination) and into it (from their source). */
export interface NeighbourSides {
  out: readonly EdgeKind[];
  in: readonly EdgeKind[];
}

/** An edge kind leading to a neighbour, with the column holding the entity (`self`) and the one holding the neighbour. */
export interface NeighbourEdge {
  self: 'source' | 'destination';
  other: 'source' | 'destination';
  kind: EdgeKind;
}

/** The condition's edges; with `types`, only those that can start at an entity of one of them. */
export function neighbourEdges(c: NeighbourCondition, types?: readonly string[]): NeighbourEdge[] {
  const edges: NeighbourEdge[] = [
    ...c.sides.out.map((kind): NeighbourEdge => ({ self: 'source', other: 'destination', kind })),
    ...c.sides.in.map((kind): NeighbourEdge => ({ self: 'destination', other: 'source', kind })),
  ];
  if (!types) return edges;
  return edges.filter((e) => (e.self === 'source' ? e.kind.sourceTypes : e.kind.destinationTypes).some((t) => types.includes(t)));
}

/**
 * Full text: every word in one of the columns (all text columns when absent) of the entity's
 * text; as a phrase, the words in sequence within one column. `prefix` makes the last word a prefix.
 */
export interface TextCondition {
  kind: 'text';
  columns?: TextColumn[];
  words: string[];
  phrase: boolean;
  prefix: boolean;
}

export type SortOrder = 'ASCENDING' | 'DESCENDING';

/** Where a page starts: after this sort key (see SearchQuery.sort). */
export interface Keyset {
  /** The sort value of the last entity of the previous page (null: it had none; a score for relevance). */
  value?: string | number | null;
  urn: string;
  /** For relevance: the store's id of the last entity (ties are in id order). */
  id?: number;
}

export interface SearchQuery {
  /** Entity types searched (their key aspects name them). */
  types: ReadonlyArray<{ name: string; keyAspect: string }>;
  condition: Condition;
  /** Entities with status.removed = true are left out unless asked for. */
  includeRemoved: boolean;
  /**
   * `urn` (default), a sortable keyword field, or `relevance`: the `rank` conditions (free words,
   * conjuncts of `condition`) score each entity by how well its names match them.
   */
  sort: { by: 'urn' | 'relevance' | string; order: SortOrder };
  rank?: TextCondition[];
  after?: Keyset;
  count: number;
  /** Fields to count values of over the whole result (`entity`: entity types). */
  facets: FacetField[];
  /** Fires when the client has gone: a store stops the search where it can (PostgreSQL cancels its queries). */
  signal?: AbortSignal;
}

/**
 * A facet's index field and where its values are: keyword values, or numbers (number properties;
 * a date property is counted by its strings, not by the instants kept beside them).
 */
export interface FacetField {
  field: string;
  numbers: boolean;
}

export interface SearchResult {
  urns: string[];
  /** The sort key of the last URN, when more may follow. */
  next?: Keyset;
  total: number;
  facets: Array<{ field: string; aggregations: Record<string, number> }>;
}
