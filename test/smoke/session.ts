import { randomBytes } from 'node:crypto';
import { testApp, type TestApp } from '../helpers.js';
import type { Transport } from './runner.js';

export interface SmokeSession {
  transport: Transport;
  /** The bearer token every fixture request carries. */
  token: string;
  close(): Promise<void>;
}

/**
 * A fresh urnbase (SQLite in memory, or its own PostgreSQL database with URNBASE_TEST_POSTGRES=1)
 * with authentication on, as `urnbase serve` runs by default, and a session like DataHub's smoke
 * `auth_session`: the `datahub` user's personal token, made through the token API. Its actor,
 * `urn:li:corpuser:datahub`, is the one DataHub's fixtures expect in system metadata. The role is
 * admin, as DataHub's `datahub` user is its root user: the fixtures hard delete structured
 * properties, which only an admin may.
 */
export async function openSmokeSession(): Promise<SmokeSession> {
  const admin = `urnb_${randomBytes(32).toString('base64url')}`;
  const t: TestApp = await testApp({ auth: true, adminToken: admin, authFailureLimit: 100_000 });
  const created = await t.call({
    method: 'POST',
    url: '/openapi/v2/auth/tokens',
    headers: { authorization: `Bearer ${admin}` },
    payload: { name: 'datahub', role: 'admin' },
  });
  if (created.status !== 201 || typeof created.body?.token !== 'string') {
    await t.app.close();
    throw new Error(`could not create the datahub token: ${created.status} ${created.raw}`);
  }
  const transport: Transport = async ({ method, url, headers, body }) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: body } : {}) });
    return { status: res.statusCode, body: res.body };
  };
  return { transport, token: created.body.token as string, close: () => t.app.close() };
}
