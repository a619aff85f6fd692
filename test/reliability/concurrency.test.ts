import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { datasetUrn, enc, V2 } from '../helpers.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { Client } from './client.js';
import { reliabilityStores, storeTarget, type StoreTarget } from './target.js';

const ADMIN = 'urnb_reliability-concurrency-admin-0123456789abc';
const CLIENTS = 50;

for (const { kind, skip } of await reliabilityStores()) {
  // On PostgreSQL the clients go through two replicas, so the races cross processes too.
  const replicas = kind === 'postgres' ? 2 : 1;
  describe(`concurrency on ${kind}: ${CLIENTS} clients on one entity through ${replicas} process(es)`, { skip }, () => {
    let target: StoreTarget;
    let servers: ServerProcess[] = [];
    let clients: Client[] = [];
    before(async () => {
      target = await storeTarget(kind);
      const args = [...target.args, '--log-level', 'warn', '--tests-interval', '0'];
      // One process first: it migrates the store; a second replica then joins.
      servers.push(await startServer({ args, env: { URNBASE_ADMIN_TOKEN: ADMIN } }));
      while (servers.length < replicas) servers.push(await startServer({ args, env: { URNBASE_ADMIN_TOKEN: ADMIN } }));
      clients = Array.from({ length: CLIENTS }, (_, i) => new Client(servers[i % replicas].base, ADMIN));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await target?.remove();
    });

    it(`${CLIENTS} PATCHes, each adding a different structured property, lose nothing`, async (t) => {
      const properties = Array.from({ length: CLIENTS }, (_, i) => `urn:li:structuredProperty:reliability.p${i}`);
      const defined = await clients[0].call(
        'POST',
        `${V2}/structuredProperty?async=false`,
        properties.map((urn, i) => ({
          urn,
          aspects: {
            propertyDefinition: {
              value: { qualifiedName: `reliability.p${i}`, valueType: 'urn:li:dataType:datahub.string', cardinality: 'SINGLE', entityTypes: ['urn:li:entityType:datahub.dataset'] },
            },
          },
        })),
      );
      assert.equal(defined.status, 200, JSON.stringify(defined.body));
      const urn = datasetUrn('reliability.concurrent.properties');
      const answers = await Promise.all(
        clients.map((client, i) =>
          client.call(
            'PATCH',
            `${V2}/dataset/${enc(urn)}/structuredProperties?systemMetadata=true`,
            { patch: [{ op: 'add', path: `/properties/${properties[i]}`, value: { propertyUrn: properties[i], values: [{ string: `value ${i}` }] } }], arrayPrimaryKeys: { properties: ['propertyUrn'] } },
            { 'content-type': 'application/json-patch+json' },
          ),
        ),
      );
      assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.find((a) => a.status !== 200)?.body));
      // Each PATCH made its own version: 1..50, once each.
      const versions = answers.map((a) => Number(a.body.aspects.structuredProperties.systemMetadata.version)).sort((a, b) => a - b);
      assert.deepEqual(versions, Array.from({ length: CLIENTS }, (_, i) => i + 1));
      const stored = await clients[1].call('GET', `${V2}/dataset/${enc(urn)}/structuredProperties?systemMetadata=true`);
      assert.equal(stored.body.systemMetadata.version, String(CLIENTS));
      const values = new Map(stored.body.value.properties.map((p: { propertyUrn: string; values: Array<{ string: string }> }) => [p.propertyUrn, p.values[0].string]));
      assert.deepEqual(
        [...values].sort(),
        properties.map((p, i) => [p, `value ${i}`]).sort(),
      );
      t.diagnostic(`${kind}: ${CLIENTS} concurrent PATCHes → ${answers.filter((a) => a.status === 200).length} × 200, ${values.size} properties kept, versions 1..${versions.at(-1)}`);
    });

    it(`${CLIENTS} writes with If-Version-Match: 1 at once → exactly one 200, ${CLIENTS - 1} × 412`, async () => {
      const urn = datasetUrn('reliability.concurrent.precondition');
      const path = `${V2}/dataset/${enc(urn)}/datasetProperties`;
      assert.equal((await clients[0].call('POST', path, { name: 'start' })).status, 200);
      const answers = await Promise.all(clients.map((client, i) => client.call('POST', path, { name: `writer ${i}` }, { 'If-Version-Match': '1' })));
      const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
      assert.equal(won.length, 1, `winners: ${JSON.stringify(won)}`);
      for (const lost of answers.filter((a) => a.status !== 200)) {
        assert.equal(lost.status, 412);
        assert.deepEqual(lost.body, { error: 'Precondition Error', message: `Expected version 1, actual version 2 for aspect datasetProperties of ${urn}` });
      }
      const stored = await clients[1].call('GET', `${path}?systemMetadata=true`);
      assert.deepEqual([stored.body.value, stored.body.systemMetadata.version], [{ name: `writer ${won[0]}` }, '2']);
    });

    it(`${CLIENTS} clients each bump one aspect with read-then-If-Version-Match: one writer per version, 412 to the rest`, async (t) => {
      const urn = datasetUrn('reliability.concurrent.bumps');
      const path = `${V2}/dataset/${enc(urn)}/datasetProperties`;
      assert.equal((await clients[0].call('POST', path, { name: 'start' })).status, 200);
      const winners = new Map<number, number>();
      let refused = 0;
      await Promise.all(
        clients.map(async (client, i) => {
          for (;;) {
            const current = await client.call('GET', `${path}?systemMetadata=true`);
            const version = Number(current.body.systemMetadata.version);
            const answer = await client.call('POST', `${path}?systemMetadata=true`, { name: `bumped by ${i}` }, { 'If-Version-Match': String(version) });
            if (answer.status === 412) {
              assert.match(answer.body.message, new RegExp(`^Expected version ${version}, actual version \\d+ for aspect datasetProperties of `));
              refused++;
              continue;
            }
            assert.equal(answer.status, 200, JSON.stringify(answer.body));
            const made = Number(answer.body.aspects.datasetProperties.systemMetadata.version);
            assert.equal(made, version + 1, 'the write made the version after the one it matched');
            assert.ok(!winners.has(made), `version ${made} was granted twice`);
            winners.set(made, i);
            return;
          }
        }),
      );
      assert.deepEqual([...winners.keys()].sort((a, b) => a - b), Array.from({ length: CLIENTS }, (_, i) => i + 2));
      // The history holds each winner's value at the version it was granted.
      for (const [version, writer] of winners) {
        const old = await clients[0].call('GET', `${path}?version=${version}`);
        assert.deepEqual(old.body.value, { name: `bumped by ${writer}` }, `version ${version}`);
      }
      t.diagnostic(`${kind}: ${CLIENTS} bumps granted (versions 2..${CLIENTS + 1}, one writer each), ${refused} × 412 on the way`);
    });
  });
}
