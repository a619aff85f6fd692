import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Registry } from '../../src/registry/registry.js';
import { SearchFields } from '../../src/search/fields.js';

/** docs/search.md lists the fields DataHub's model adds, each once, with its kind: the list stays true when the registry is regenerated. */
describe('docs/search.md: fields from the model', () => {
  it('lists exactly the fields the registry adds, with their kinds', () => {
    const text = readFileSync(new URL('../../../docs/search.md', import.meta.url), 'utf8');
    const listed = new Map([...text.matchAll(/^\| `([^`]+)` \| (text|urn|keyword|boolean) \|/gm)].map((m) => [m[1], m[2]]));
    const fields = SearchFields.load(Registry.load()).all().filter((field) => field.fromModel);
    assert.deepEqual(
      [...listed].sort(([a], [b]) => a.localeCompare(b)),
      fields.map((field) => [field.name, field.type]).sort(([a], [b]) => a.localeCompare(b)),
    );
    assert.match(text, new RegExp(`: ${fields.length} more, read from the registry`));
  });
});
