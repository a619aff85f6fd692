import type { AspectPlugin } from '../ingest/plugins.js';
import type { ReadFilter } from '../read/read.js';
import type { Store } from '../store/store.js';
import { assignmentRules } from './assignments.js';
import { definitionRules } from './definitions.js';
import { hardDeleteRules, hideSoftDeletedValues } from './lifecycle.js';
import { settingsRules } from './settings.js';

export { assertFilterable } from './lifecycle.js';
export { propertyLookup } from './search-lookup.js';

/** Structured properties' rules for the write path, by aspect name. */
export function structuredPropertyPlugins(): Map<string, AspectPlugin[]> {
  return new Map([
    ['propertyDefinition', [definitionRules, hardDeleteRules]],
    ['structuredPropertyKey', [hardDeleteRules]],
    ['structuredPropertySettings', [settingsRules]],
    ['structuredProperties', [assignmentRules]],
  ]);
}

/** Structured properties' read-time filters, by aspect name. */
export function structuredPropertyReadFilters(store: Store): Map<string, ReadFilter[]> {
  return new Map([['structuredProperties', [hideSoftDeletedValues(store)]]]);
}
