import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, V2, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, unauthorized, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/**
 * The structured-property mutations: definitions created, widened and soft deleted, an asset's
 * values set and removed, each judged by the same rules as a REST write and refused whole.
 */

const ORDERS = datasetUrn('structured.orders');
const MISSING = datasetUrn('structured.missing');
const SALES = 'urn:li:domain:sales';
const RETENTION = 'urn:li:structuredProperty:io.example.retention';
const TEAM = 'urn:li:structuredProperty:io.example.team';
const STEWARD = 'urn:li:structuredProperty:io.example.steward';
const FROZEN = 'urn:li:structuredProperty:io.example.frozen';
const NOPE = 'urn:li:structuredProperty:io.example.nope';
const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';
const DOMAIN_TYPE = 'urn:li:entityType:datahub.domain';
const NUMBER = 'urn:li:dataType:datahub.number';
const STRING = 'urn:li:dataType:datahub.string';

const ENTITY = `urn type definition { qualifiedName displayName description cardinality immutable valueType { urn }
  allowedValues { value { ... on StringValue { stringValue } ... on NumberValue { numberValue } } description }
  entityTypes { urn } typeQualifier { allowedTypes { urn } } }
  settings { isHidden showInSearchFilters showInAssetSummary showAsAssetBadge showInColumnsTable }`.replace(/\s+/g, ' ');
const VALUES = 'properties { structuredProperty { urn } values { __typename ... on StringValue { stringValue } ... on NumberValue { numberValue } } associatedUrn }';

const CREATE = `mutation createStructuredProperty($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) { ${ENTITY} } }`;
const UPDATE = `mutation updateStructuredProperty($input: UpdateStructuredPropertyInput!) { updateStructuredProperty(input: $input) { ${ENTITY} } }`;
const UPSERT = `mutation upsertStructuredProperties($input: UpsertStructuredPropertiesInput!) { upsertStructuredProperties(input: $input) { ${VALUES} } }`;
const REMOVE = `mutation removeStructuredProperties($input: RemoveStructuredPropertiesInput!) { removeStructuredProperties(input: $input) { ${VALUES} } }`;
const DELETE = 'mutation deleteStructuredProperty($input: DeleteStructuredPropertyInput!) { deleteStructuredProperty(input: $input) }';

const str = (stringValue: string) => ({ __typename: 'StringValue', stringValue });
const num = (numberValue: number) => ({ __typename: 'NumberValue', numberValue });
const entry = (property: string, values: unknown[], associatedUrn = ORDERS) => ({ structuredProperty: { urn: property }, values, associatedUrn });
const NO_SETTINGS = null;

describe('GraphQL structured-property mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  const mutate = (query: string, variables?: Record<string, unknown>) => m.mutate(query, variables);
  const events = () => t.services.store.readEvents(0, 100_000);
  /** The aspect as stored, without the audit stamps (checked on their own). */
  const stored = async (urn: string, aspect: string) => {
    const value = await m.aspectOf(urn, aspect);
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value, (key, v) => (key === 'created' || key === 'lastModified' ? undefined : v)));
  };
  /** Each `[query, field, variables, message]` is refused BAD_REQUEST with the message, and nothing at all is written. */
  async function refused(cases: ReadonlyArray<readonly [string, string, Record<string, unknown>, string]>) {
    const before = await events();
    for (const [query, field, variables, message] of cases) {
      assert.deepEqual(await mutate(query, variables), { data: null, errors: [badRequest(message, query, field)] }, message);
    }
    assert.deepEqual(await events(), before);
  }

  before(async () => {
    m = await mutationApp();
    ({ t } = m);
    await t.services.ingest.ingest(
      [
        { urn: ORDERS, aspect: 'datasetProperties', changeType: 'UPSERT' as const, value: { name: 'orders' } },
        { urn: SALES, aspect: 'domainProperties', changeType: 'UPSERT' as const, value: { name: 'Sales' } },
      ],
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('createStructuredProperty writes the definition and settings in one write and answers the property', async () => {
    const input = {
      qualifiedName: 'io.example.retention',
      displayName: 'Retention',
      description: 'Days kept',
      valueType: NUMBER,
      cardinality: 'SINGLE',
      allowedValues: [{ numberValue: 30, description: 'A month' }, { numberValue: 365 }],
      entityTypes: [DATASET_TYPE],
      settings: { showInSearchFilters: true, showInAssetSummary: true },
    };
    const before = (await events()).length;
    assert.deepEqual(await mutate(CREATE, { input }), {
      data: {
        createStructuredProperty: {
          urn: RETENTION,
          type: 'STRUCTURED_PROPERTY',
          definition: {
            qualifiedName: 'io.example.retention',
            displayName: 'Retention',
            description: 'Days kept',
            cardinality: 'SINGLE',
            immutable: false,
            valueType: { urn: NUMBER },
            allowedValues: [{ value: { numberValue: 30 }, description: 'A month' }, { value: { numberValue: 365 }, description: null }],
            entityTypes: [{ urn: DATASET_TYPE }],
            typeQualifier: null,
          },
          settings: { isHidden: false, showInSearchFilters: true, showInAssetSummary: true, showAsAssetBadge: false, showInColumnsTable: false },
        },
      },
    });
    assert.deepEqual(await stored(RETENTION, 'propertyDefinition'), {
      qualifiedName: 'io.example.retention',
      valueType: NUMBER,
      entityTypes: [DATASET_TYPE],
      displayName: 'Retention',
      description: 'Days kept',
      allowedValues: [{ value: { double: 30 }, description: 'A month' }, { value: { double: 365 } }],
      cardinality: 'SINGLE',
    });
    const definition = await m.aspectOf(RETENTION, 'propertyDefinition');
    assert.equal(definition.created.actor, WRITER);
    assert.deepEqual(definition.lastModified, definition.created);
    assert.deepEqual(await stored(RETENTION, 'structuredPropertySettings'), { showInSearchFilters: true, showInAssetSummary: true });
    assert.deepEqual(
      (await events()).slice(before).map((e) => `${e.changeType} ${e.aspect}`),
      ['UPSERT structuredPropertyKey', 'CREATE_ENTITY propertyDefinition', 'UPSERT structuredPropertySettings'],
    );
  });

  it('createStructuredProperty in literal form: the id names the property, settings stay absent', async () => {
    const query = `mutation { createStructuredProperty(input: {id: "io.example.team", valueType: "${STRING}", entityTypes: ["${DATASET_TYPE}"]}) { ${ENTITY} } }`;
    assert.deepEqual(await mutate(query), {
      data: {
        createStructuredProperty: {
          urn: TEAM,
          type: 'STRUCTURED_PROPERTY',
          definition: {
            qualifiedName: 'io.example.team',
            displayName: null,
            description: null,
            cardinality: null,
            immutable: false,
            valueType: { urn: STRING },
            allowedValues: null,
            entityTypes: [{ urn: DATASET_TYPE }],
            typeQualifier: null,
          },
          settings: NO_SETTINGS,
        },
      },
    });
    assert.equal(await m.aspectOf(TEAM, 'structuredPropertySettings'), undefined);
    // Neither id nor qualifiedName: a UUID names it.
    const { data } = await mutate(`mutation { createStructuredProperty(input: {valueType: "${STRING}", entityTypes: ["${DATASET_TYPE}"]}) { urn definition { qualifiedName } } }`);
    const id = /^urn:li:structuredProperty:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(data.createStructuredProperty.urn)?.[1];
    assert.ok(id, data.createStructuredProperty.urn);
    assert.equal(data.createStructuredProperty.definition.qualifiedName, id);
  });

  it('createStructuredProperty: a URN property with allowed types, immutable, MULTIPLE', async () => {
    const input = { id: 'io.example.steward', qualifiedName: 'io.example.steward', valueType: 'urn:li:dataType:datahub.urn', cardinality: 'MULTIPLE', immutable: false, typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] }, entityTypes: [DATASET_TYPE] };
    const { data } = await mutate(CREATE, { input });
    assert.deepEqual(data.createStructuredProperty.definition.typeQualifier, { allowedTypes: [{ urn: 'urn:li:entityType:datahub.corpuser' }] });
    assert.deepEqual((await stored(STEWARD, 'propertyDefinition')).typeQualifier, { allowedTypes: ['urn:li:entityType:datahub.corpuser'] });
    const frozen = { id: 'io.example.frozen', valueType: STRING, immutable: true, entityTypes: [DATASET_TYPE] };
    assert.equal((await mutate(CREATE, { input: frozen })).data.createStructuredProperty.definition.immutable, true);
  });

  it('createStructuredProperty refuses a taken id and bad input whole: neither definition nor settings is written', async () => {
    const base = { valueType: NUMBER, entityTypes: [DATASET_TYPE] };
    const fresh = 'urn:li:structuredProperty:io.example.fresh';
    await refused([
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.retention' } }, 'A structured property already exists with this urn'],
      [CREATE, 'createStructuredProperty', { input: { ...base, qualifiedName: 'io.example.team' } }, 'A structured property already exists with this urn'],
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', qualifiedName: 'io.example.other' } }, 'Qualified name and the ID of a structured property must match'],
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', allowedValues: [{ numberValue: 1, stringValue: 'one' }] } }, 'Each allowed value must provide exactly one of stringValue or numberValue.'],
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', allowedValues: [{ description: 'nothing' }] } }, 'Each allowed value must provide exactly one of stringValue or numberValue.'],
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', allowedValues: [{ stringValue: 'thirty' }] } }, `Property ${fresh}: allowed value {string=thirty} must be a double for valueType ${NUMBER}`],
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', valueType: 'urn:li:dataType:datahub.boolean' } }, `Property ${fresh}: valueType urn:li:dataType:datahub.boolean must be one of urn:li:dataType:datahub.string, urn:li:dataType:datahub.rich_text, urn:li:dataType:datahub.number, urn:li:dataType:datahub.date, urn:li:dataType:datahub.urn`],
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', entityTypes: ['urn:li:entityType:datahub.spaceship'] } }, `Property ${fresh}: entity type urn:li:entityType:datahub.spaceship does not exist`],
      // The settings are refused: the definition of the same mutation is not written either.
      [CREATE, 'createStructuredProperty', { input: { ...base, id: 'io.example.fresh', settings: { isHidden: true, showInSearchFilters: true } } }, `Cannot have property isHidden = true while other display location settings are also true: ${fresh}`],
    ]);
    assert.equal(await m.aspectOf(fresh, 'propertyDefinition'), undefined);
    assert.deepEqual((await stored(RETENTION, 'propertyDefinition')).valueType, NUMBER);
  });

  it('updateStructuredProperty widens the definition and merges the settings given', async () => {
    const input = {
      urn: RETENTION,
      displayName: 'Retention days',
      newAllowedValues: [{ numberValue: 90, description: 'A quarter' }, { numberValue: 30, description: 'Thirty days' }],
      setCardinalityAsMultiple: true,
      newEntityTypes: [DOMAIN_TYPE, DATASET_TYPE],
      settings: { showAsAssetBadge: true },
    };
    assert.deepEqual((await mutate(UPDATE, { input })).data.updateStructuredProperty, {
      urn: RETENTION,
      type: 'STRUCTURED_PROPERTY',
      definition: {
        qualifiedName: 'io.example.retention',
        displayName: 'Retention days',
        description: 'Days kept',
        cardinality: 'MULTIPLE',
        immutable: false,
        valueType: { urn: NUMBER },
        allowedValues: [
          { value: { numberValue: 30 }, description: 'Thirty days' },
          { value: { numberValue: 365 }, description: null },
          { value: { numberValue: 90 }, description: 'A quarter' },
        ],
        entityTypes: [{ urn: DATASET_TYPE }, { urn: DOMAIN_TYPE }],
        typeQualifier: null,
      },
      settings: { isHidden: false, showInSearchFilters: true, showInAssetSummary: true, showAsAssetBadge: true, showInColumnsTable: false },
    });
    assert.deepEqual(await stored(RETENTION, 'structuredPropertySettings'), { showInSearchFilters: true, showInAssetSummary: true, showAsAssetBadge: true });
    const definition = await m.aspectOf(RETENTION, 'propertyDefinition');
    assert.equal(definition.lastModified.actor, WRITER);
    assert.ok(definition.lastModified.time >= definition.created.time);
    // New allowed types are added to those there; in literal form.
    const literal = `mutation { updateStructuredProperty(input: {urn: "${STEWARD}", typeQualifier: {newAllowedTypes: ["urn:li:entityType:datahub.corpGroup"]}}) { definition { typeQualifier { allowedTypes { urn } } } } }`;
    assert.deepEqual((await mutate(literal)).data.updateStructuredProperty.definition.typeQualifier, {
      allowedTypes: [{ urn: 'urn:li:entityType:datahub.corpuser' }, { urn: 'urn:li:entityType:datahub.corpGroup' }],
    });
    // What changes nothing writes nothing.
    const before = await events();
    assert.equal((await mutate(UPDATE, { input: { urn: RETENTION, displayName: 'Retention days', settings: { showAsAssetBadge: true } } })).data.updateStructuredProperty.urn, RETENTION);
    assert.deepEqual(await events(), before);
  });

  it('updateStructuredProperty overtaken by another write reads again and keeps both changes', async () => {
    const ingest = t.services.ingest;
    const original = ingest.ingest.bind(ingest);
    let overtaken = 0;
    // The first time the mutation writes, another writer changes the description just before.
    ingest.ingest = (async (proposals, context) => {
      if (overtaken === 0 && proposals[0]?.urn === TEAM && proposals[0].ifVersionMatch !== undefined) {
        overtaken++;
        const current = await m.aspectOf(TEAM, 'propertyDefinition');
        await original([{ urn: TEAM, aspect: 'propertyDefinition', changeType: 'UPSERT', value: { ...current, description: 'Who runs it' } }], { actor: WRITER, source: 'test' });
      }
      return original(proposals, context);
    }) as typeof ingest.ingest;
    try {
      const { data } = await mutate(UPDATE, { input: { urn: TEAM, displayName: 'Team' } });
      assert.equal(overtaken, 1);
      assert.deepEqual([data.updateStructuredProperty.definition.displayName, data.updateStructuredProperty.definition.description], ['Team', 'Who runs it']);
    } finally {
      ingest.ingest = original;
    }
    const { displayName, description } = await stored(TEAM, 'propertyDefinition');
    assert.deepEqual([displayName, description], ['Team', 'Who runs it']);
  });

  it('two updates in one document: each answers the property as its own write left it', async () => {
    const field = (alias: string, description: string) => `${alias}: updateStructuredProperty(input: {urn: "${TEAM}", description: "${description}"}) { definition { description } }`;
    assert.deepEqual(await mutate(`mutation { ${field('first', 'One')} ${field('second', 'Two')} }`), {
      data: { first: { definition: { description: 'One' } }, second: { definition: { description: 'Two' } } },
    });
    assert.equal((await stored(TEAM, 'propertyDefinition')).description, 'Two');
  });

  it('updateStructuredProperty refuses narrowing, unknown properties and bad settings, writing nothing', async () => {
    const definition = await stored(TEAM, 'propertyDefinition');
    await refused([
      [UPDATE, 'updateStructuredProperty', { input: { urn: TEAM, newAllowedValues: [{ stringValue: 'payments' }] } }, `Cannot restrict values that were previously allowed: ${TEAM} had no allowedValues; raise the version (yyyyMMddHHmmss) to make this breaking change`],
      [UPDATE, 'updateStructuredProperty', { input: { urn: RETENTION, newAllowedValues: [{ stringValue: 'forever' }] } }, `Property ${RETENTION}: allowed value {string=forever} must be a double for valueType ${NUMBER}`],
      [UPDATE, 'updateStructuredProperty', { input: { urn: RETENTION, newAllowedValues: [{ stringValue: 'forever', numberValue: 1 }] } }, 'Each allowed value must provide exactly one of stringValue or numberValue.'],
      [UPDATE, 'updateStructuredProperty', { input: { urn: TEAM, newEntityTypes: ['urn:li:entityType:datahub.spaceship'] } }, `Property ${TEAM}: entity type urn:li:entityType:datahub.spaceship does not exist`],
      [UPDATE, 'updateStructuredProperty', { input: { urn: NOPE, displayName: 'Nope' } }, 'Attempting to update a structured property with no definition aspect.'],
      [UPDATE, 'updateStructuredProperty', { input: { urn: ORDERS, displayName: 'Orders' } }, `${ORDERS} is not a structured property urn`],
      [UPDATE, 'updateStructuredProperty', { input: { urn: 'not a urn', displayName: 'x' } }, 'Invalid urn!: not a urn'],
      // A second badge: the settings are refused, and the definition change of the same mutation is not written.
      [UPDATE, 'updateStructuredProperty', { input: { urn: TEAM, displayName: 'The team', settings: { showAsAssetBadge: true } } }, `Cannot have more than one property set with show as badge. Property urns currently set: [${RETENTION}]`],
    ]);
    assert.deepEqual(await stored(TEAM, 'propertyDefinition'), definition);
  });

  it('upsertStructuredProperties sets the values named, keeps the others, and answers all of them', async () => {
    const input = {
      assetUrn: ORDERS,
      structuredPropertyInputParams: [
        { structuredPropertyUrn: RETENTION, values: [{ numberValue: 30 }] },
        { structuredPropertyUrn: TEAM, values: [{ stringValue: 'payments' }] },
        { structuredPropertyUrn: FROZEN, values: [{ stringValue: 'kept' }] },
      ],
    };
    assert.deepEqual(await mutate(UPSERT, { input }), {
      data: { upsertStructuredProperties: { properties: [entry(RETENTION, [num(30)]), entry(TEAM, [str('payments')]), entry(FROZEN, [str('kept')])] } },
    });
    const first = await m.aspectOf(ORDERS, 'structuredProperties');
    assert.deepEqual(first.properties[0].created.actor, WRITER);
    // Again for one property: it keeps its place and its created stamp; the others are untouched.
    const literal = `mutation { upsertStructuredProperties(input: {assetUrn: "${ORDERS}", structuredPropertyInputParams: [{structuredPropertyUrn: "${RETENTION}", values: [{numberValue: 365}, {numberValue: 90}]}]}) { ${VALUES} } }`;
    assert.deepEqual(await mutate(literal), {
      data: { upsertStructuredProperties: { properties: [entry(RETENTION, [num(365), num(90)]), entry(TEAM, [str('payments')]), entry(FROZEN, [str('kept')])] } },
    });
    const second = await m.aspectOf(ORDERS, 'structuredProperties');
    assert.deepEqual(second.properties[0].created, first.properties[0].created);
    assert.deepEqual(second.properties.slice(1), first.properties.slice(1));
    assert.deepEqual(await stored(ORDERS, 'structuredProperties'), {
      properties: [
        { propertyUrn: RETENTION, values: [{ double: 365 }, { double: 90 }] },
        { propertyUrn: TEAM, values: [{ string: 'payments' }] },
        { propertyUrn: FROZEN, values: [{ string: 'kept' }] },
      ],
    });
    // The same values on an immutable property are no change, so they are accepted.
    const same = { assetUrn: ORDERS, structuredPropertyInputParams: [{ structuredPropertyUrn: FROZEN, values: [{ stringValue: 'kept' }] }] };
    assert.equal((await mutate(UPSERT, { input: same })).data.upsertStructuredProperties.properties.length, 3);
    // The domain takes the retention (an entity type the update added).
    const domain = { assetUrn: SALES, structuredPropertyInputParams: [{ structuredPropertyUrn: RETENTION, values: [{ numberValue: 30 }] }] };
    assert.deepEqual(await mutate(UPSERT, { input: domain }), { data: { upsertStructuredProperties: { properties: [entry(RETENTION, [num(30)], SALES)] } } });
  });

  it('upsertStructuredProperties refuses a wrong value, a value not allowed, an unknown property or asset, writing nothing', async () => {
    const one = (structuredPropertyUrn: string, values: unknown[], assetUrn = ORDERS) => ({ input: { assetUrn, structuredPropertyInputParams: [{ structuredPropertyUrn, values }] } });
    const field = 'upsertStructuredProperties';
    const valuesBefore = await stored(ORDERS, 'structuredProperties');
    await refused([
      [UPSERT, field, one(RETENTION, [{ stringValue: '30' }]), `Property: ${RETENTION}, value: {string=30} should be a number (a "double" member)`],
      [UPSERT, field, one(RETENTION, [{ numberValue: 7 }]), `Property: ${RETENTION}, value: {double=7} should be one of [{double=30}, {double=365}, {double=90}]`],
      [UPSERT, field, one(TEAM, [{ numberValue: 7 }]), `Property: ${TEAM}, value: {double=7} should be a string (a "string" member)`],
      [UPSERT, field, one(TEAM, [{ stringValue: 'a' }, { stringValue: 'b' }]), `Property: ${TEAM} has cardinality 1, but multiple values were assigned: [{string=a}, {string=b}]`],
      [UPSERT, field, one(STEWARD, [{ stringValue: 'urn:li:tag:pii' }]), `Property: ${STEWARD}, value: {string=urn:li:tag:pii} is not of any supported urn types:[urn:li:entityType:datahub.corpuser, urn:li:entityType:datahub.corpGroup]`],
      [UPSERT, field, one(TEAM, [{ stringValue: 'x' }], SALES), `Property: ${TEAM} cannot be applied to entity type domain; its entityTypes are [${DATASET_TYPE}]`],
      [UPSERT, field, one(FROZEN, [{ stringValue: 'changed' }]), `Cannot mutate an immutable property: ${FROZEN}`],
      [UPSERT, field, one(NOPE, [{ stringValue: 'x' }]), `Structured Property ${NOPE} does not exist`],
      [UPSERT, field, one(TEAM, [{ stringValue: 'x', numberValue: 1 }]), 'Each value must provide exactly one of stringValue or numberValue.'],
      [UPSERT, field, one(TEAM, [{}]), 'Each value must provide exactly one of stringValue or numberValue.'],
      [UPSERT, field, one(TEAM, [{ stringValue: 'x' }], MISSING), `Asset with provided urn ${MISSING} does not exist`],
      [UPSERT, field, one('payments', [{ stringValue: 'x' }]), 'Invalid urn!: payments'],
      // One good and one bad: neither is written.
      [
        UPSERT,
        field,
        { input: { assetUrn: ORDERS, structuredPropertyInputParams: [{ structuredPropertyUrn: TEAM, values: [{ stringValue: 'billing' }] }, { structuredPropertyUrn: RETENTION, values: [{ numberValue: 7 }] }] } },
        `Property: ${RETENTION}, value: {double=7} should be one of [{double=30}, {double=365}, {double=90}]`,
      ],
    ]);
    assert.deepEqual(await stored(ORDERS, 'structuredProperties'), valuesBefore);
  });

  it('removeStructuredProperties takes the values off and answers those left; an immutable one is refused', async () => {
    const input = { assetUrn: ORDERS, structuredPropertyUrns: [TEAM, NOPE] };
    assert.deepEqual(await mutate(REMOVE, { input }), {
      data: { removeStructuredProperties: { properties: [entry(RETENTION, [num(365), num(90)]), entry(FROZEN, [str('kept')])] } },
    });
    // Again: nothing there to remove, no error.
    assert.equal((await mutate(REMOVE, { input })).data.removeStructuredProperties.properties.length, 2);
    const literal = `mutation { removeStructuredProperties(input: {assetUrn: "${SALES}", structuredPropertyUrns: ["${RETENTION}"]}) { ${VALUES} } }`;
    assert.deepEqual(await mutate(literal), { data: { removeStructuredProperties: { properties: [] } } });
    await refused([
      [REMOVE, 'removeStructuredProperties', { input: { assetUrn: ORDERS, structuredPropertyUrns: [RETENTION, FROZEN] } }, `Cannot delete an immutable property: ${FROZEN}`],
      [REMOVE, 'removeStructuredProperties', { input: { assetUrn: MISSING, structuredPropertyUrns: [RETENTION] } }, `Asset with provided urn ${MISSING} does not exist`],
    ]);
    assert.deepEqual((await stored(ORDERS, 'structuredProperties')).properties.map((a: { propertyUrn: string }) => a.propertyUrn), [RETENTION, FROZEN]);
  });

  it('deleteStructuredProperty soft deletes: the values disappear and come back on restore; new values and updates are refused', async () => {
    assert.deepEqual(await mutate(DELETE, { input: { urn: RETENTION } }), { data: { deleteStructuredProperty: true } });
    assert.deepEqual(await m.aspectOf(RETENTION, 'status'), { removed: true });
    // Again: still soft deleted, no error.
    assert.deepEqual(await mutate(`mutation { deleteStructuredProperty(input: {urn: "${RETENTION}"}) }`), { data: { deleteStructuredProperty: true } });
    const read = await graphql(t, `{ dataset(urn: "${ORDERS}") { structuredProperties { ${VALUES} } } }`, undefined, m.viewer);
    assert.deepEqual(read.body.data.dataset.structuredProperties, { properties: [entry(FROZEN, [str('kept')])] });
    await refused([
      [UPSERT, 'upsertStructuredProperties', { input: { assetUrn: ORDERS, structuredPropertyInputParams: [{ structuredPropertyUrn: RETENTION, values: [{ numberValue: 30 }] }] } }, `Cannot apply a soft deleted Structured Property value: ${RETENTION}`],
      [UPDATE, 'updateStructuredProperty', { input: { urn: RETENTION, displayName: 'Gone' } }, `Cannot mutate a soft deleted Structured Property Definition: ${RETENTION}`],
      [DELETE, 'deleteStructuredProperty', { input: { urn: NOPE } }, `Structured property with urn ${NOPE} does not exist`],
      [DELETE, 'deleteStructuredProperty', { input: { urn: ORDERS } }, `${ORDERS} is not a structured property urn`],
    ]);
    const restored = await t.call({ method: 'POST', url: `${V2}/structuredProperty/${enc(RETENTION)}/status`, headers: m.admin, payload: { removed: false } });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    const back = await graphql(t, `{ dataset(urn: "${ORDERS}") { structuredProperties { ${VALUES} } } }`, undefined, m.viewer);
    assert.deepEqual(back.body.data.dataset.structuredProperties, { properties: [entry(RETENTION, [num(365), num(90)]), entry(FROZEN, [str('kept')])] });
  });

  it('refuses every structured-property mutation to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    // The fields are non-null (DataHub's schema): the refusal nulls the whole answer's data.
    const before = await events();
    const asked: Array<[string, string, Record<string, unknown>]> = [
      ['createStructuredProperty', CREATE, { input: { id: 'io.example.viewer', valueType: STRING, entityTypes: [DATASET_TYPE] } }],
      ['updateStructuredProperty', UPDATE, { input: { urn: TEAM, displayName: 'Viewer' } }],
      ['upsertStructuredProperties', UPSERT, { input: { assetUrn: ORDERS, structuredPropertyInputParams: [{ structuredPropertyUrn: TEAM, values: [{ stringValue: 'x' }] }] } }],
      ['removeStructuredProperties', REMOVE, { input: { assetUrn: ORDERS, structuredPropertyUrns: [RETENTION] } }],
      ['deleteStructuredProperty', DELETE, { input: { urn: TEAM } }],
    ];
    for (const [field, query, variables] of asked) {
      const { status, body } = await graphql(t, query, variables, m.viewer);
      assert.equal(status, 200);
      assert.deepEqual(body, { ...unauthorized(query, field), data: null }, field);
    }
    assert.deepEqual(await events(), before);
  });
});
