import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generate } from '../../scripts/registry/generate.js';

/**
 * The registry's generated data is what scripts/registry makes of DataHub's model: regenerated from
 * the checkout named by URNBASE_DATAHUB_MODEL, every file comes out byte for byte as committed.
 */
const CHECKOUT = process.env.URNBASE_DATAHUB_MODEL;
const DATA = fileURLToPath(new URL('../../../src/registry/data/', import.meta.url));
const SKIP = CHECKOUT
  ? false
  : 'URNBASE_DATAHUB_MODEL is not set: to check the generated registry, point it at a DataHub checkout (its metadata-models and li-utils folders; docs/DESIGN.md says which version) and run npm test';

describe("the registry generated from DataHub's model", () => {
  it('regenerates byte for byte from the DataHub checkout it was made from', { skip: SKIP }, () => {
    const committed = JSON.parse(readFileSync(`${DATA}entities.json`, 'utf8')) as { $generated: string };
    const source = /\(([^)]*)\); do not edit$/.exec(committed.$generated)?.[1];
    assert.ok(source, `entities.json does not say what it was generated from: ${committed.$generated}`);
    const generated = generate(CHECKOUT!, source);
    const differing = [...generated.files].filter(([name, text]) => readFileSync(`${DATA}${name}`, 'utf8') !== text).map(([name]) => name);
    assert.deepEqual(differing, []);
    const committedAspects = readdirSync(`${DATA}aspects`).map((f) => `aspects/${f}`).sort();
    assert.deepEqual(committedAspects, [...generated.files.keys()].filter((f) => f.startsWith('aspects/')).sort());
    assert.deepEqual([generated.entityTypes, generated.aspects, generated.timeseries], [56, 199, 10]);
  });
});
