import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import type { Services } from '../src/services.js';
import { createTestDatabase, type TestDatabase } from './pg.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** app.inject with the body parsed as JSON when there is one. */
  call(options: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
}

/** With URNBASE_TEST_POSTGRES=1: the database standing for each data dir a test names. */
const sharedDatabases = new Map<string, Promise<TestDatabase>>();

/**
 * A fresh catalog (auth off unless asked for): on a private in-memory SQLite store, or with
 * URNBASE_TEST_POSTGRES=1 on a database of its own, dropped when the app closes. Apps given the
 * same data dir share a store (processes on one data dir; on PostgreSQL one database, dropped
 * when the test process ends).
 */
export async function testApp(options: Partial<AppOptions> = {}, on: { sqlite?: boolean } = {}): Promise<TestApp> {
  // `sqlite`: the test is about the SQLite file in the data dir (the CLI reads it), whatever the suite's store.
  const usePostgres = process.env.URNBASE_TEST_POSTGRES === '1' && !options.store && !options.databaseUrl && !on.sqlite;
  const shared = usePostgres && options.dataDir !== undefined && options.dataDir !== ':memory:';
  if (shared && !sharedDatabases.has(options.dataDir!)) sharedDatabases.set(options.dataDir!, createTestDatabase());
  const database = shared ? await sharedDatabases.get(options.dataDir!) : usePostgres ? await createTestDatabase() : undefined;
  const { app, services } = await buildApp({
    dataDir: ':memory:',
    logLevel: 'silent',
    bodyLimit: 1024 * 1024,
    ...(database ? { databaseUrl: database.url, dbPool: 4 } : {}),
    ...options,
  });
  if (database && !shared) dropOnClose(app, () => database.drop());
  return {
    app,
    services,
    async call(options) {
      const res = await app.inject(options);
      let body: unknown = undefined;
      if (res.body.length > 0 && String(res.headers['content-type'] ?? '').includes('json')) body = JSON.parse(res.body);
      return { status: res.statusCode, body, headers: res.headers, raw: res.body };
    },
  };
}

/** Runs `drop` once the app (and so its store) has closed. */
export function dropOnClose(app: FastifyInstance, drop: () => Promise<void>): void {
  const close = app.close.bind(app) as () => Promise<void>;
  (app as { close: () => Promise<void> }).close = async () => {
    await close();
    await drop();
  };
}

export const enc = encodeURIComponent;

export const V2 = '/openapi/v2/entity';

/** An `upstreamLineage` value naming the datasets as TRANSFORMED upstreams (the lineage tests' edges). */
export function upstreams(...datasets: string[]): { upstreams: Array<{ dataset: string; type: string; auditStamp: { time: number; actor: string } }> } {
  return { upstreams: datasets.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:etl' } })) };
}

export function datasetUrn(name: string, platform = 'hive', fabric = 'PROD'): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${fabric})`;
}
