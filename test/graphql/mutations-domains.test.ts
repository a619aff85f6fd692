import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, type TestApp } from '../helpers.js';
import { badRequest, mutationApp, unauthorized, WRITER, type MutationApp } from './mutation-app.js';
import { graphql } from './queries.js';

/** setDomain and unsetDomain: the domains aspect written through Ingest, read back on REST and GraphQL. */

const SALES = datasetUrn('domains.sales');
const MISSING = datasetUrn('domains.missing');
const FINANCE = 'urn:li:domain:finance';
const MARKETING = 'urn:li:domain:marketing';

const SET_DOMAIN = 'mutation setDomain($entityUrn: String!, $domainUrn: String!) { setDomain(entityUrn: $entityUrn, domainUrn: $domainUrn) }';
const UNSET_DOMAIN = 'mutation unsetDomain($entityUrn: String!) { unsetDomain(entityUrn: $entityUrn) }';
const refused = (message: string, query: string, field: string) => ({ data: { [field]: null }, errors: [badRequest(message, query, field)] });

describe('GraphQL domain mutations', () => {
  let m: MutationApp;
  let t: TestApp;
  const domainsOf = (urn: string) => m.aspectOf(urn, 'domains');
  const eventsOf = async () => (await t.services.store.readEvents(0, 100_000)).filter((e) => e.urn === SALES && e.aspect === 'domains');

  before(async () => {
    m = await mutationApp();
    t = m.t;
    await t.services.ingest.ingest(
      [
        { urn: SALES, aspect: 'datasetProperties', changeType: 'UPSERT', value: { name: 'sales' } },
        { urn: FINANCE, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Finance' } },
        { urn: MARKETING, aspect: 'domainProperties', changeType: 'UPSERT', value: { name: 'Marketing' } },
      ],
      { actor: WRITER, source: 'test' },
    );
  });
  after(() => t.app.close());

  it('setDomain puts the entity in one domain, once; read back on REST and GraphQL', async () => {
    assert.deepEqual(await m.mutate(SET_DOMAIN, { entityUrn: SALES, domainUrn: FINANCE }), { data: { setDomain: true } });
    assert.deepEqual(await m.mutate(SET_DOMAIN, { entityUrn: SALES, domainUrn: FINANCE }), { data: { setDomain: true } });
    assert.deepEqual(await domainsOf(SALES), { domains: [FINANCE] });
    assert.deepEqual((await eventsOf()).map((e) => [e.changeType, e.created.actor]), [['UPSERT', WRITER]]);
    const fetched = await graphql(t, `{ dataset(urn: "${SALES}") { domain { domain { urn properties { name } } } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { dataset: { domain: { domain: { urn: FINANCE, properties: { name: 'Finance' } } } } } });
  });

  it('setDomain in literal form replaces the domain; unsetDomain takes it away', async () => {
    assert.deepEqual(await m.mutate(`mutation { setDomain(entityUrn: "${SALES}", domainUrn: "${MARKETING}") }`), { data: { setDomain: true } });
    assert.deepEqual(await domainsOf(SALES), { domains: [MARKETING] });
    assert.deepEqual(await m.mutate(`mutation { unsetDomain(entityUrn: "${SALES}") }`), { data: { unsetDomain: true } });
    assert.deepEqual(await domainsOf(SALES), { domains: [] });
    const fetched = await graphql(t, `{ dataset(urn: "${SALES}") { domain { domain { urn } } } }`, undefined, m.viewer);
    assert.deepEqual(fetched.body, { data: { dataset: { domain: null } } });
    assert.equal((await eventsOf()).length, 3);
  });

  it('refuses an unknown domain or entity, writing nothing', async () => {
    const before = await t.services.store.readEvents(0, 100_000);
    assert.deepEqual(
      await m.mutate(SET_DOMAIN, { entityUrn: SALES, domainUrn: 'urn:li:domain:none' }),
      refused(`Failed to add Entity ${SALES} to Domain urn:li:domain:none. Domain does not exist.`, SET_DOMAIN, 'setDomain'),
    );
    assert.deepEqual(
      await m.mutate(SET_DOMAIN, { entityUrn: SALES, domainUrn: 'urn:li:tag:finance' }),
      refused(`Failed to add Entity ${SALES} to Domain urn:li:tag:finance. Domain does not exist.`, SET_DOMAIN, 'setDomain'),
    );
    assert.deepEqual(
      await m.mutate(SET_DOMAIN, { entityUrn: MISSING, domainUrn: FINANCE }),
      refused(`Failed to add Entity ${MISSING} to Domain ${FINANCE}. Entity does not exist.`, SET_DOMAIN, 'setDomain'),
    );
    assert.deepEqual(
      await m.mutate(UNSET_DOMAIN, { entityUrn: MISSING }),
      refused(`Failed to unset Domains for resource with entity urn ${MISSING}. Entity does not exist.`, UNSET_DOMAIN, 'unsetDomain'),
    );
    assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
    assert.equal(await domainsOf(MISSING), undefined);
  });

  it('refuses both to a viewer token with UNAUTHORIZED, writing nothing', async () => {
    const before = await t.services.store.readEvents(0, 100_000);
    const set = await graphql(t, SET_DOMAIN, { entityUrn: SALES, domainUrn: FINANCE }, m.viewer);
    const unset = await graphql(t, UNSET_DOMAIN, { entityUrn: SALES }, m.viewer);
    assert.deepEqual([set.status, set.body], [200, unauthorized(SET_DOMAIN, 'setDomain')]);
    assert.deepEqual([unset.status, unset.body], [200, unauthorized(UNSET_DOMAIN, 'unsetDomain')]);
    assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
  });
});
