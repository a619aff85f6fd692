import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../src/errors.js';
import { parseCategories } from '../../src/timeline/categories.js';
import { aspectsOf } from '../../src/timeline/differs/index.js';

describe('timeline categories', () => {
  it('reads categories repeated or comma-separated, in any case and spelling of a compound name, in the order first named', () => {
    assert.deepEqual(parseCategories(['tag,Technical_Schema', 'technical schema', 'glossary-term', 'TAG']), ['TAG', 'TECHNICAL_SCHEMA', 'GLOSSARY_TERM']);
  });

  it("takes OWNERSHIP, DataHub's GraphQL name, for OWNER", () => {
    assert.deepEqual(parseCategories(['OWNERSHIP']), ['OWNER']);
  });

  it('refuses an unknown category, naming it and the accepted ones', () => {
    assert.throws(
      () => parseCategories(['TAG,LIFECYCLE']),
      new ValidationError('categories: "LIFECYCLE" is not a timeline category; one of TAG, OWNER, GLOSSARY_TERM, TECHNICAL_SCHEMA, DOCUMENTATION, DOMAIN, DEPRECATION, LINEAGE, STRUCTURED_PROPERTY'),
    );
  });

  it('refuses no category at all', () => {
    assert.throws(() => parseCategories([' , ']), new ValidationError('categories is required: one or more of TAG, OWNER, GLOSSARY_TERM, TECHNICAL_SCHEMA, DOCUMENTATION, DOMAIN, DEPRECATION, LINEAGE, STRUCTURED_PROPERTY'));
  });

  it("computes each category from DataHub's aspects for it", () => {
    assert.deepEqual(
      Object.fromEntries(['TAG', 'OWNER', 'GLOSSARY_TERM', 'TECHNICAL_SCHEMA', 'DOCUMENTATION', 'DOMAIN', 'DEPRECATION', 'LINEAGE', 'STRUCTURED_PROPERTY'].map((c) => [c, aspectsOf(c as never)])),
      {
        TAG: ['globalTags', 'schemaMetadata', 'editableSchemaMetadata'],
        OWNER: ['ownership'],
        GLOSSARY_TERM: ['glossaryTerms', 'editableSchemaMetadata'],
        TECHNICAL_SCHEMA: ['schemaMetadata'],
        DOCUMENTATION: ['schemaMetadata', 'editableSchemaMetadata', 'datasetProperties', 'editableDatasetProperties', 'institutionalMemory'],
        DOMAIN: ['domains'],
        DEPRECATION: ['deprecation'],
        LINEAGE: ['upstreamLineage'],
        STRUCTURED_PROPERTY: ['structuredProperties'],
      },
    );
  });
});
