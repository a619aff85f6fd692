import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { V2 } from '../helpers.js';
import { freePort, startServer, type ServerProcess } from '../server-process.js';
import { Client } from './client.js';
import { emptyFigures, Writer } from './ledger.js';
import { level, reliabilityStores, storeTarget, type StoreTarget } from './target.js';

const ADMIN = 'urnb_reliability-crash-admin-0123456789abcdefghij';
const WRITERS = 6;
const KILLS = level(3, 25);

for (const { kind, skip } of await reliabilityStores()) {
  describe(`crash durability on ${kind}: SIGKILL while clients write`, { skip }, () => {
    let target: StoreTarget;
    let port: number;
    let server: ServerProcess | undefined;
    let writers: Writer[] = [];
    const start = async () => {
      server = await startServer({ port, args: [...target.args, '--log-level', 'warn', '--tests-interval', '0'], env: { URNBASE_ADMIN_TOKEN: ADMIN } });
    };
    before(async () => {
      target = await storeTarget(kind);
      port = await freePort();
      await start();
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await target?.remove();
    });

    it(`every acknowledged write survives ${KILLS} kills with its exact value and version; no write is half there`, async (t) => {
      const figures = emptyFigures();
      const client = new Client(`http://127.0.0.1:${port}`, ADMIN);
      writers = Array.from({ length: WRITERS }, (_, id) => new Writer(id, client, figures));
      let stopped = false;
      const running = writers.map((w) => w.run(() => stopped));
      const began = Date.now();
      // Kills at random moments while writes are in flight; each restart is on the same port. Each
      // start must first have acknowledged writes again: on a loaded machine a restart (PostgreSQL's
      // pool, migrations) can take longer than a fixed pause, and kills would then hit no writes.
      for (let kill = 0; kill < KILLS; kill++) {
        await writesAcknowledged(() => figures.acknowledged, WRITERS);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 1200));
        await server!.stop('SIGKILL');
        await start();
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      stopped = true;
      await Promise.all(running);
      // One more kill with nothing in flight: the last acknowledged writes must be there too.
      await server!.stop('SIGKILL');
      await start();
      for (const writer of writers) await writer.verify();

      t.diagnostic(
        `${kind}: ${KILLS + 1} kills in ${((Date.now() - began) / 1000).toFixed(1)} s; writes acknowledged ${figures.acknowledged}, lost or half-written ${figures.lost.length}; ` +
          `cut off by a kill ${figures.unanswered} (found committed whole ${figures.unansweredCommitted}, the rest not at all); unexpected answers ${figures.unexpected.length}`,
      );
      assert.deepEqual(figures.lost, []);
      assert.deepEqual(figures.unexpected, []);
      assert.ok(figures.acknowledged > WRITERS * KILLS, `writes kept going between kills (${figures.acknowledged} acknowledged)`);
    });

    it('after the kills, search finds every acknowledged entity by its current name (the index committed with the rows)', async () => {
      const client = new Client(server!.base, ADMIN);
      const missing: string[] = [];
      for (const writer of writers) {
        for (const [urn, name] of writer.names()) {
          // Quoted: a bare word is a prefix, and w2n2 would find w2n20…w2n29 too.
          const found = await client.call('GET', `${V2}/dataset?query=${encodeURIComponent(`"${name}"`)}`);
          assert.equal(found.status, 200);
          const urns = found.body.results.map((r: { urn: string }) => r.urn);
          if (urns.length !== 1 || urns[0] !== urn) missing.push(`${name}: ${JSON.stringify(urns)}`);
        }
      }
      assert.deepEqual(missing, []);
    });
  });
}

/** Resolves once `count` more writes than now were acknowledged (at most 30 s). */
async function writesAcknowledged(acknowledged: () => number, count: number): Promise<void> {
  const target = acknowledged() + count;
  const deadline = Date.now() + 30_000;
  while (acknowledged() < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
