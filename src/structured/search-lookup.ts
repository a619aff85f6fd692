import type { Reader } from '../read/read.js';
import type { PropertyLookup } from '../search/resolve.js';
import { searchFieldName } from './definitions.js';
import { isSoftDeleted, type PropertyDefinition } from './model.js';

/**
 * Search's lookup of a structured property by the name a field uses: the qualified name, or
 * DataHub's form with `_` for `.` (`com_example_privacy`). Read through the Reader, so a property's
 * definition and status are seen as every read sees them.
 */
export function propertyLookup(reader: Reader): PropertyLookup {
  return async (name) => {
    const aspects = new Set(['propertyDefinition', 'status']);
    let urn = `urn:li:structuredProperty:${name}`;
    let found = (await reader.getEntities([urn], aspects)).get(urn);
    if (!found?.aspects.has('propertyDefinition') && name.includes('_')) {
      // The `.`/`_` collision rule keeps the underscore form unique among live properties.
      for await (const row of reader.scan('propertyDefinition')) {
        if (searchFieldName((row.value as PropertyDefinition).qualifiedName) !== name) continue;
        const candidate = (await reader.getEntities([row.urn], aspects)).get(row.urn);
        if (!found || !isSoftDeleted(candidate?.aspects.get('status')?.value)) {
          found = candidate;
          urn = row.urn;
        }
      }
    }
    const definition = found?.aspects.get('propertyDefinition')?.value as PropertyDefinition | undefined;
    if (!definition) return undefined;
    return {
      urn,
      valueType: definition.valueType,
      single: (definition.cardinality ?? 'SINGLE') === 'SINGLE',
      softDeleted: isSoftDeleted(found?.aspects.get('status')?.value),
    };
  };
}
