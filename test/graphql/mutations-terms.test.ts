import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** addTerm(s), removeTerm, batchAddTerms, batchRemoveTerms: glossaryTerms through Ingest, read back on REST and GraphQL. */

const LEDGER = datasetUrn('terms.ledger');
const INVOICES = datasetUrn('terms.invoices');
const MISSING = datasetUrn('terms.missing');
const REVENUE = 'urn:li:glossaryTerm:revenue';
const COST = 'urn:li:glossaryTerm:cost';

const ADD_TERMS = 'mutation addTerms($input: AddTermsInput!) { addTerms(input: $input) }';
const REMOVE_TERM = 'mutation removeTerm($input: TermAssociationInput!) { removeTerm(input: $input) }';
const ADD_TERM = 'mutation addTerm($input: TermAssociationInput!) { addTerm(input: $input) }';
const BATCH_ADD = 'mutation batchAddTerms($input: BatchAddTermsInput!) { batchAddTerms(input: $input) }';
const BATCH_REMOVE = 'mutation batchRemoveTerms($input: BatchRemoveTermsInput!) { batchRemoveTerms(input: $input) }';

describe('GraphQL glossary term mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  /** The terms' URNs, and the audit stamp's actor (its time is the write's). */
  const termsOf = async (urn: string) => {
    const value = await m.aspectOf(urn, 'glossaryTerms');
    return value && { urns: value.terms.map((term: { urn: string }) => term.urn), actor: value.auditStamp.actor };
  };

  before(async () => {
    m = await mutationApp();
    t = m.t;
    await t.services.ingest.ingest(
      [
        { urn: LEDGER, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'ledger' } },
        { urn: INVOICES, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'invoices' } },
        { urn: REVENUE, aspect: 'glossaryTermInfo', changeType: 'UPSERT', value: { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' } },
        { urn: COST, aspect: 'glossaryTermInfo', changeType: 'UPSERT', value: { name: 'Cost', definition: 'Money out', termSource: 'INTERNAL' } },
      ],
      { actor: 'urn:li:corpuser:seed', source: 'test' },
    );
  });
  after(() => t.app.close());

  it('addTerms adds the terms once, stamped with the writer; read back on REST and GraphQL', async () => {
    const input = { termUrns: [REVENUE, COST], resourceUrn: LEDGER };
    assert.deepEqual(await m.mutate(ADD_TERMS, { input }), { data: { addTerms: true } });
    assert.deepEqual(await m.mutate(ADD_TERMS, { input }), { data: { addTerms: true } });
    assert.deepEqual(await termsOf(LEDGER), { urns: [REVENUE, COST], actor: WRITER });
    const events = (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === LEDGER && e.aspect === 'glossaryTerms');
    assert.deepEqual(events.map((e) => [e.changeType, e.created.actor]), [['PATCH', WRITER]]);
    const fetched = await graphql(t, `{ dataset(urn: "${LEDGER}") { glossaryTerms { terms { term { urn properties { name } } } } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body.data.dataset.glossaryTerms.terms, [
      { term: { urn: REVENUE, properties: { name: 'Revenue' } } },
      { term: { urn: COST, properties: { name: 'Cost' } } },
    ]);
  });

  it('removeTerm and addTerm, literal as the CLI sends them', async () => {
    assert.deepEqual(await m.mutate(`mutation { removeTerm(input: {termUrn: "${COST}", resourceUrn: "${LEDGER}"}) }`), { data: { removeTerm: true } });
    assert.deepEqual(await termsOf(LEDGER), { urns: [REVENUE], actor: WRITER });
    assert.deepEqual(await m.mutate(`mutation { addTerm(input: {termUrn: "${COST}", resourceUrn: "${INVOICES}"}) }`), { data: { addTerm: true } });
    assert.deepEqual(await termsOf(INVOICES), { urns: [COST], actor: WRITER });
  });

  it('batchAddTerms and batchRemoveTerms change every resource', async () => {
    const resources = [{ resourceUrn: LEDGER }, { resourceUrn: INVOICES }];
    assert.deepEqual(await m.mutate(BATCH_ADD, { input: { termUrns: [COST], resources } }), { data: { batchAddTerms: true } });
    assert.deepEqual((await termsOf(LEDGER))?.urns, [REVENUE, COST]);
    assert.deepEqual((await termsOf(INVOICES))?.urns, [COST]);
    assert.deepEqual(await m.mutate(BATCH_REMOVE, { input: { termUrns: [COST], resources } }), { data: { batchRemoveTerms: true } });
    assert.deepEqual((await termsOf(LEDGER))?.urns, [REVENUE]);
    assert.deepEqual((await termsOf(INVOICES))?.urns, []);
  });

  it('a batch naming an unknown resource or term writes nothing and names it', async () => {
    const before = await t.services.store.readEvents(0, 100_000);
    assert.deepEqual(await m.mutate(BATCH_ADD, { input: { termUrns: [COST], resources: [{ resourceUrn: LEDGER }, { resourceUrn: MISSING }] } }), {
      data: { batchAddTerms: null },
      errors: [badRequest(`Failed to update resource with urn ${MISSING}. Entity does not exist.`, BATCH_ADD, 'batchAddTerms')],
    });
    assert.deepEqual(await m.mutate(BATCH_ADD, { input: { termUrns: [COST, 'urn:li:glossaryTerm:unknown'], resources: [{ resourceUrn: LEDGER }] } }), {
      data: { batchAddTerms: null },
      errors: [badRequest('Failed to validate label with urn urn:li:glossaryTerm:unknown. Urn does not exist.', BATCH_ADD, 'batchAddTerms')],
    });
    assert.deepEqual(await m.mutate(ADD_TERMS, { input: { termUrns: ['urn:li:tag:pii'], resourceUrn: LEDGER } }), {
      data: { addTerms: null },
      errors: [badRequest('Failed to validate label with urn urn:li:tag:pii. Urn type does not match entity type glossaryTerm..', ADD_TERMS, 'addTerms')],
    });
    assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
    assert.deepEqual((await termsOf(LEDGER))?.urns, [REVENUE]);
  });

  it('refuses every term mutation to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    await m.refusedToViewer([
      ['addTerm', ADD_TERM, { input: { termUrn: COST, resourceUrn: LEDGER } }],
      ['addTerms', ADD_TERMS, { input: { termUrns: [COST], resourceUrn: LEDGER } }],
      ['removeTerm', REMOVE_TERM, { input: { termUrn: REVENUE, resourceUrn: LEDGER } }],
      ['batchAddTerms', BATCH_ADD, { input: { termUrns: [COST], resources: [{ resourceUrn: LEDGER }] } }],
      ['batchRemoveTerms', BATCH_REMOVE, { input: { termUrns: [REVENUE], resources: [{ resourceUrn: LEDGER }] } }],
    ]);
  });
});
