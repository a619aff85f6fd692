import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import type { Services } from '../src/services.js';
import { createTestDatabase } from './pg.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** app.inject with the body parsed as JSON when there is one. */
  call(options: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
}

/**
 * A fresh catalog (auth off unless asked for): on a private in-memory SQLite store, or with
 * URNBASE_TEST_POSTGRES=1 on a database of its own, dropped when the app closes.
 */
export async function testApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  const usePostgres = process.env.URNBASE_TEST_POSTGRES === '1' && !options.store && !options.databaseUrl;
  const database = usePostgres ? await createTestDatabase() : undefined;
  const { app, services } = await buildApp({
    dataDir: ':memory:',
    logLevel: 'silent',
    bodyLimit: 1024 * 1024,
    ...(database ? { databaseUrl: database.url, dbPool: 4 } : {}),
    ...options,
  });
  if (database) dropOnClose(app, () => database.drop());
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

export function datasetUrn(name: string, platform = 'hive', fabric = 'PROD'): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${fabric})`;
}
