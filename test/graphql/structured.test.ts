import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, testApp, V2, type TestApp } from '../helpers.js';
import { write } from '../search/fixtures.js';
import { defineProperty, postValues, setStatus } from '../structured/fixtures.js';
import { graphql } from './queries.js';

/** Structured properties in the fetches: values of each type on entities, a property's definition and settings. */

const DATASET = datasetUrn('structured.orders');
const DOMAIN = 'urn:li:domain:sales';
const OWNER = 'urn:li:corpuser:jdoe';

const VALUES = `structuredProperties { properties {
  structuredProperty { urn definition { qualifiedName displayName valueType { info { type } } } }
  values { __typename ... on StringValue { stringValue } ... on NumberValue { numberValue } }
  associatedUrn } }`;

describe('GraphQL structured properties', () => {
  let t: TestApp;
  const urns: Record<string, string> = {};
  before(async () => {
    t = await testApp();
    const dataset = ['urn:li:entityType:datahub.dataset'];
    urns.text = await defineProperty(t, 'io.example.owner_team', { displayName: 'Owner team' });
    urns.number = await defineProperty(t, 'io.example.retention', {
      valueType: 'urn:li:dataType:datahub.number',
      displayName: 'Retention',
      description: 'Days kept',
      cardinality: 'MULTIPLE',
      allowedValues: [{ value: { double: 30 }, description: 'A month' }, { value: { double: 365 } }],
      entityTypes: [...dataset, 'urn:li:entityType:datahub.domain'],
    });
    urns.urn = await defineProperty(t, 'io.example.steward', { valueType: 'urn:li:dataType:datahub.urn', displayName: 'Steward' });
    urns.date = await defineProperty(t, 'io.example.review', { valueType: 'urn:li:dataType:datahub.date', displayName: 'Review', immutable: true });
    urns.richText = await defineProperty(t, 'io.example.notes', { valueType: 'urn:li:dataType:datahub.rich_text', displayName: 'Notes' });
    urns.gone = await defineProperty(t, 'io.example.gone', { displayName: 'Gone' });
    await write(t, 'structuredProperty', urns.number, 'structuredPropertySettings', { isHidden: false, showInSearchFilters: true, showAsAssetBadge: false, showInAssetSummary: true, showInColumnsTable: false });
    const posted = await postValues(t, DATASET, [
      { propertyUrn: urns.text, values: [{ string: 'payments' }] },
      { propertyUrn: urns.number, values: [{ double: 30 }, { double: 365 }] },
      { propertyUrn: urns.urn, values: [{ string: OWNER }] },
      { propertyUrn: urns.date, values: [{ string: '2026-12-01' }] },
      { propertyUrn: urns.richText, values: [{ string: '**Kept** for audits' }] },
      { propertyUrn: urns.gone, values: [{ string: 'hidden once soft-deleted' }] },
    ]);
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    assert.equal((await setStatus(t, urns.gone, true)).status, 200);
    const domain = await t.call({ method: 'POST', url: `${V2}/domain/${enc(DOMAIN)}/structuredProperties`, payload: { properties: [{ propertyUrn: urns.number, values: [{ double: 30 }] }] } });
    assert.equal(domain.status, 200, JSON.stringify(domain.body));
  });
  after(() => t.app.close());

  const entry = (property: string, qualifiedName: string, displayName: string, type: string, values: unknown[], associatedUrn = DATASET) => ({
    structuredProperty: { urn: property, definition: { qualifiedName, displayName, valueType: { info: { type } } } },
    values,
    associatedUrn,
  });

  it("answers an entity's values of each type, without those of a soft-deleted property", async () => {
    const { body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { ${VALUES} } }`, { urn: DATASET });
    assert.deepEqual(body, {
      data: {
        dataset: {
          structuredProperties: {
            properties: [
              entry(urns.text, 'io.example.owner_team', 'Owner team', 'STRING', [{ __typename: 'StringValue', stringValue: 'payments' }]),
              entry(urns.number, 'io.example.retention', 'Retention', 'NUMBER', [{ __typename: 'NumberValue', numberValue: 30 }, { __typename: 'NumberValue', numberValue: 365 }]),
              entry(urns.urn, 'io.example.steward', 'Steward', 'URN', [{ __typename: 'StringValue', stringValue: OWNER }]),
              entry(urns.date, 'io.example.review', 'Review', 'DATE', [{ __typename: 'StringValue', stringValue: '2026-12-01' }]),
              entry(urns.richText, 'io.example.notes', 'Notes', 'RICH_TEXT', [{ __typename: 'StringValue', stringValue: '**Kept** for audits' }]),
            ],
          },
        },
      },
    });
  });

  it('answers the entities the values name (a URN-typed property\'s), none for other values', async () => {
    const { body } = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { structuredProperties { properties { structuredProperty { urn } valueEntities { urn type ... on CorpUser { username } } } } } }`, { urn: DATASET });
    const entities = Object.fromEntries(body.data.dataset.structuredProperties.properties.map((p: { structuredProperty: { urn: string }; valueEntities: unknown }) => [p.structuredProperty.urn, p.valueEntities]));
    assert.deepEqual(entities, { [urns.text]: [], [urns.number]: [], [urns.urn]: [{ urn: OWNER, type: 'CORP_USER', username: 'jdoe' }], [urns.date]: [], [urns.richText]: [] });
  });

  it('answers the values on a domain, and null for an entity without any', async () => {
    const { body } = await graphql(t, `query q($domain: String!) { domain(urn: $domain) { ${VALUES} } }`, { domain: DOMAIN });
    assert.deepEqual(body.data.domain.structuredProperties.properties, [entry(urns.number, 'io.example.retention', 'Retention', 'NUMBER', [{ __typename: 'NumberValue', numberValue: 30 }], DOMAIN)]);
    await write(t, 'dataset', datasetUrn('structured.bare'), 'datasetProperties', { name: 'bare' });
    const bare = await graphql(t, `query q($urn: String!) { dataset(urn: $urn) { structuredProperties { properties { associatedUrn } } } }`, { urn: datasetUrn('structured.bare') });
    assert.deepEqual(bare.body, { data: { dataset: { structuredProperties: null } } });
  });

  it("answers a property's definition and settings as DataHub shapes them", async () => {
    const { body } = await graphql(t, `query q($urn: String!) { structuredProperty(urn: $urn) { urn type
      definition { qualifiedName displayName description cardinality immutable
        valueType { urn type info { type qualifiedName displayName } }
        allowedValues { value { ... on StringValue { stringValue } ... on NumberValue { numberValue } } description }
        entityTypes { urn type info { type qualifiedName } } }
      settings { isHidden showInSearchFilters showAsAssetBadge showInAssetSummary showInColumnsTable } } }`, { urn: urns.number });
    assert.deepEqual(body, {
      data: {
        structuredProperty: {
          urn: urns.number,
          type: 'STRUCTURED_PROPERTY',
          definition: {
            qualifiedName: 'io.example.retention',
            displayName: 'Retention',
            description: 'Days kept',
            cardinality: 'MULTIPLE',
            immutable: false,
            valueType: { urn: 'urn:li:dataType:datahub.number', type: 'DATA_TYPE', info: { type: 'NUMBER', qualifiedName: 'datahub.number', displayName: 'Number' } },
            allowedValues: [{ value: { numberValue: 30 }, description: 'A month' }, { value: { numberValue: 365 }, description: null }],
            entityTypes: [
              { urn: 'urn:li:entityType:datahub.dataset', type: 'ENTITY_TYPE', info: { type: 'DATASET', qualifiedName: 'datahub.dataset' } },
              { urn: 'urn:li:entityType:datahub.domain', type: 'ENTITY_TYPE', info: { type: 'DOMAIN', qualifiedName: 'datahub.domain' } },
            ],
          },
          settings: { isHidden: false, showInSearchFilters: true, showAsAssetBadge: false, showInAssetSummary: true, showInColumnsTable: false },
        },
      },
    });
  });

  it('answers null settings and allowed values for a property without them', async () => {
    const { body } = await graphql(t, `query q($urn: String!) { structuredProperty(urn: $urn) { definition { cardinality immutable allowedValues { description } } settings { isHidden } } }`, { urn: urns.date });
    assert.deepEqual(body, { data: { structuredProperty: { definition: { cardinality: 'SINGLE', immutable: true, allowedValues: null }, settings: null } } });
  });

  it('answers a soft-deleted property when fetched by its URN, as DataHub reads by key do', async () => {
    const { body } = await graphql(t, `query q($urn: String!) { structuredProperty(urn: $urn) { urn definition { qualifiedName } } }`, { urn: urns.gone });
    assert.deepEqual(body, { data: { structuredProperty: { urn: urns.gone, definition: { qualifiedName: 'io.example.gone' } } } });
  });
});
