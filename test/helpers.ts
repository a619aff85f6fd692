import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type AppOptions } from '../src/app.js';
import type { Services } from '../src/services.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** app.inject with the body parsed as JSON when there is one. */
  call(options: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
}

/** A fresh catalog on a private in-memory SQLite store (auth off unless asked for). */
export async function testApp(options: Partial<AppOptions> = {}): Promise<TestApp> {
  const { app, services } = await buildApp({ dataDir: ':memory:', logLevel: 'silent', bodyLimit: 1024 * 1024, ...options });
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

export const enc = encodeURIComponent;

export const V2 = '/openapi/v2/entity';

export function datasetUrn(name: string, platform = 'hive', fabric = 'PROD'): string {
  return `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${fabric})`;
}
