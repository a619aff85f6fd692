import { ValidationError } from '../errors.js';
import type { Condition, CompareOp, FacetField, StringOp, TextColumn } from '../store/search-types.js';
import { HAS } from './documents.js';
import type { SearchField, SearchFields } from './fields.js';
import { neighbourCondition, type LineageFields } from './lineage-fields.js';
import { quoted } from '../limits.js';

/**
 * Turns the fields and values of queries and filters into conditions on what the index stores:
 * `tags:pii` is the tag URN `urn:li:tag:pii`, `name` matches whole names and the words in them,
 * `structuredProperties.<name>` is the property's values, typed by its definition. Unknown fields
 * and soft-deleted properties are refused here, before anything is searched.
 */

/**
 * What a criterion asks of a field's values. `words`: the query language's `name:orders`, which
 * also matches the words inside a name (a filter's EQUAL on a name matches the whole name only).
 */
export type Match = { op: StringOp; values: string[]; words?: boolean } | { op: CompareOp; value: string } | { op: 'exists' };

interface Property {
  urn: string;
  valueType: string;
  /** Cardinality SINGLE: at most one value per entity. */
  single: boolean;
}

/** A structured property's definition as a search field needs it. */
export interface SearchableProperty extends Property {
  softDeleted: boolean;
}

/**
 * Finds the structured property a field name means (`structuredProperties.<name>`); undefined when
 * none is defined. Structured properties are a layer above search, so search declares what it
 * needs and structured/ answers it (wired in core.ts).
 */
export type PropertyLookup = (name: string) => Promise<SearchableProperty | undefined>;

const NUMBER_TYPE = 'urn:li:dataType:datahub.number';
const DATE_TYPE = 'urn:li:dataType:datahub.date';
const PROPERTY_PREFIX = 'structuredProperties.';

export class FieldResolver {
  /** Properties resolved so far in this request, by the name used. */
  private readonly properties = new Map<string, Property>();
  /** The fields conditions were asked for so far (a condition may resolve to nothing on the field). */
  readonly named = new Set<string>();

  constructor(
    private readonly fields: SearchFields,
    private readonly lookup: PropertyLookup,
    /**
     * A search that includes soft-deleted entities may also name soft-deleted properties, whose
     * values stay indexed until a hard delete: that is how a client counts what one would remove;
     * and soft-deleted lineage neighbours count.
     */
    private readonly includeSoftDelete = false,
    /** `upstreams` and `downstreams`, answered from the graph's edges. */
    private readonly lineage: LineageFields = new Map(),
  ) {}

  /** The condition for a match on a named field. */
  async condition(name: string, match: Match): Promise<Condition> {
    this.named.add(name);
    if (name === 'urn') return urnCondition(match);
    if (name.startsWith(PROPERTY_PREFIX) && name.length > PROPERTY_PREFIX.length) {
      return propertyCondition(await this.property(name.slice(PROPERTY_PREFIX.length)), match, name);
    }
    // Before the model's fields: DataHub's `upstreams` is indexed from upstreamLineage alone (it stays for facets).
    const sides = this.lineage.get(name);
    if (sides) return neighbourCondition(name, sides, match, this.includeSoftDelete);
    const field = this.fields.field(name);
    if (field) return fieldCondition(field, match);
    const present = this.fields.presenceOf(name);
    if (present) return presenceCondition(name, present, match);
    const declared = this.fields.all().filter((f) => !f.fromModel);
    const more = this.fields.all().length - declared.length;
    throw new ValidationError(
      `Unknown search field ${name} (known: urn, ${declared.map((f) => f.name).join(', ')}, structuredProperties.<name>, and ${more} fields of DataHub's model, listed in docs/search.md)`,
    );
  }

  /** What a facet counts: a keyword field's values, a property's values, or `entity` (entity types). */
  async facetField(name: string): Promise<FacetField> {
    if (name === 'entity') return { field: 'entity', numbers: false };
    if (name.startsWith(PROPERTY_PREFIX)) {
      const property = await this.property(name.slice(PROPERTY_PREFIX.length));
      return { field: property.urn, numbers: property.valueType === NUMBER_TYPE };
    }
    return { field: await this.indexField(name, 'facet'), numbers: false };
  }

  /** The index field a facet or sort names: a keyword field, or `urn` for sorting. */
  async indexField(name: string, purpose: 'facet' | 'sort'): Promise<string> {
    if (name === 'urn' && purpose === 'sort') return 'urn';
    const field = this.fields.field(name);
    if (!field) throw new ValidationError(`Unknown search field ${name}`);
    if (purpose === 'sort' && !field.sortable) {
      const sortable = this.fields.all().filter((f) => f.sortable).map((f) => f.name);
      throw new ValidationError(`Cannot sort by ${name} (sortable: urn, ${sortable.join(', ')})`);
    }
    if (purpose === 'facet' && !field.keyword) {
      throw new ValidationError(`Cannot aggregate the text field ${name}`);
    }
    return field.name;
  }

  /** A structured property by the name a field uses; an unknown one (or a soft-deleted one, unless allowed) may not be searched on. */
  private async property(name: string): Promise<Property> {
    const known = this.properties.get(name);
    if (known) return known;
    const found = await this.lookup(name);
    if (!found) throw new ValidationError(`Unknown structured property ${PROPERTY_PREFIX}${name}`);
    if (found.softDeleted && !this.includeSoftDelete) throw new ValidationError(`Cannot filter on deleted Structured Property [${found.urn}]`);
    const property = { urn: found.urn, valueType: found.valueType, single: found.single };
    this.properties.set(name, property);
    return property;
  }
}

/** Free words: in any column of any aspect, each a prefix unless quoted. */
export function freeText(value: string, phrase: boolean, prefix: boolean): Condition {
  return { kind: 'text', words: [value], phrase, prefix };
}

function urnCondition(match: Match): Condition {
  if (match.op === 'exists') return { kind: 'all' };
  if ('values' in match) return { kind: 'urn', op: match.op, values: match.values };
  throw new ValidationError('urn: ranges are not supported');
}

/** `hasOwners:true`: the entity has a value of the field (DataHub's `hasValuesFieldName`). */
function presenceCondition(name: string, field: SearchField, match: Match): Condition {
  if (match.op === 'exists') return { kind: 'all' };
  const values = 'values' in match && match.op === 'eq' ? match.values.map((v) => v.toLowerCase()) : [];
  if (values.length === 0 || !values.every((v) => v === 'true' || v === 'false')) throw new ValidationError(`${name}: expected true or false`);
  if (values.includes('true') && values.includes('false')) return { kind: 'all' };
  const has = fieldCondition(field, { op: 'exists' });
  return values[0] === 'true' ? has : { kind: 'not', child: has };
}

function fieldCondition(field: SearchField, match: Match): Condition {
  switch (field.type) {
    case 'text':
      return textCondition(field, match);
    case 'boolean': {
      if (match.op === 'exists') return { kind: 'exists', field: field.name };
      if (match.op !== 'eq') throw new ValidationError(`${field.name}: expected true or false`);
      const values = match.values.map((v) => v.toLowerCase());
      if (!values.every((v) => v === 'true' || v === 'false')) throw new ValidationError(`${field.name}: expected true or false, got ${match.values.join(', ')}`);
      // An entity without the aspect counts as false (status.removed defaults to false).
      const isTrue: Condition = { kind: 'term', field: field.name, op: 'eq', values: ['true'], unique: true };
      if (values.includes('true') && values.includes('false')) return { kind: 'all' };
      return values.includes('true') ? isTrue : { kind: 'not', child: isTrue };
    }
    case 'urn':
    case 'keyword': {
      if (match.op === 'exists') return { kind: 'exists', field: field.name };
      if (!('values' in match)) throw new ValidationError(`${field.name}: ranges are not supported`);
      const values = field.type === 'urn' ? match.values.flatMap((v) => urnForms(field, v, match.op)) : match.values;
      return { kind: 'term', field: field.name, op: match.op, values, unique: field.single };
    }
  }
}

/**
 * A text field's values are its words (full text); a name or qualified name is also one keyword
 * (lower-cased), so that `qualifiedName:db.schema.tab*` and exact names match as wholes.
 */
function textCondition(field: SearchField, match: Match): Condition {
  const columns: TextColumn[] = [field.column];
  if (match.op === 'exists') {
    return field.keyword ? { kind: 'exists', field: field.name } : { kind: 'term', field: HAS, op: 'prefix', values: [`${field.name}@`] };
  }
  if (!('values' in match)) {
    if (!field.keyword) throw new ValidationError(`${field.name}: ranges are not supported on text`);
    return { kind: 'term', field: field.name, op: match.op, values: [match.value.toLowerCase()], unique: field.single };
  }
  const conditions = match.values.map((value): Condition => {
    const whole: Condition = { kind: 'term', field: field.name, op: match.op, values: [value.toLowerCase()], unique: field.single };
    if (match.op === 'suffix') return field.keyword ? whole : { kind: 'none' };
    const words: Condition = { kind: 'text', columns, words: [value], phrase: true, prefix: match.op === 'prefix' };
    if (!field.keyword) return words;
    return match.words ? { kind: 'or', children: [whole, words] } : whole;
  });
  return conditions.length === 1 ? conditions[0] : { kind: 'or', children: conditions };
}

/** `pii` for a tag field means `urn:li:tag:pii`; a value that is a URN already stays as it is. */
function urnForms(field: SearchField, value: string, op: StringOp): string[] {
  if (value.startsWith('urn:li:') || op === 'contains' || op === 'suffix') return [value];
  return field.entityTypes.map((type) => `urn:li:${type}:${value}`);
}

function propertyCondition(property: Property, match: Match, name: string): Condition {
  const field = property.urn;
  const unique = property.single;
  if (match.op === 'exists') return { kind: 'exists', field };
  const numeric = property.valueType === NUMBER_TYPE;
  const date = property.valueType === DATE_TYPE;
  if ('values' in match) {
    if (numeric && match.op === 'eq') {
      const children = match.values.map((v): Condition => ({ kind: 'number', field, op: 'eq', value: number(name, v), unique }));
      return children.length === 1 ? children[0] : { kind: 'or', children };
    }
    if (numeric) throw new ValidationError(`${name}: a number property compares with =, <, <=, > or >=`);
    return { kind: 'term', field, op: match.op, values: match.values, unique };
  }
  if (numeric) return { kind: 'number', field, op: match.op, value: number(name, match.value), unique };
  if (date) return { kind: 'number', field, op: match.op, value: instant(name, match.value), unique };
  return { kind: 'term', field, op: match.op, values: [match.value], unique };
}

function number(field: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) throw new ValidationError(`${field}: expected a number, got ${quoted(text)}`);
  return value;
}

/** A date (`2024-05-01`, an ISO instant) or epoch millis. */
function instant(field: string, text: string): number {
  const trimmed = text.trim();
  if (/^\d{9,}$/.test(trimmed)) return Number(trimmed);
  const time = /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? Date.parse(`${trimmed}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(trimmed) ? Date.parse(trimmed) : NaN;
  if (Number.isNaN(time)) throw new ValidationError(`${field}: expected a date (YYYY-MM-DD) or epoch milliseconds, got ${quoted(text)}`);
  return time;
}
