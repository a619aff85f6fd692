import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../helpers.js';
import { graphql } from './queries.js';

/** What the mutation tests share: an app with auth on, a viewer's and a writer's tokens, the error shapes expected. */

const ADMIN_SECRET = 'urnb_graphql-mutations-admin-secret-0123456789';
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** The writer token's actor (its name). */
export const WRITER = 'urn:li:corpuser:writer';

export interface MutationApp {
  t: TestApp;
  admin: Record<string, string>;
  viewer: Record<string, string>;
  writer: Record<string, string>;
  /** A POST of `query` (the writer's by default): the answer's body. */
  mutate(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  /** The latest value of a dataset's aspect over REST, undefined when there is none. */
  aspectOf(urn: string, aspect: string): Promise<any>;
  /** Sends each `[field, query, variables]` with the viewer's token: each must be refused UNAUTHORIZED, and nothing written. */
  refusedToViewer(asked: ReadonlyArray<readonly [string, string, Record<string, unknown>]>): Promise<void>;
}

export async function mutationApp(): Promise<MutationApp> {
  const t = await testApp({ auth: true, adminToken: ADMIN_SECRET, authFailureLimit: 100_000 });
  const admin = bearer(ADMIN_SECRET);
  const token = async (name: string, role: string) => {
    const made = await t.call({ method: 'POST', url: '/openapi/v2/auth/tokens', headers: admin, payload: { name, role } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return bearer(made.body.token);
  };
  const viewer = await token('reader', 'viewer');
  const writer = await token('writer', 'editor');
  return {
    t,
    admin,
    viewer,
    writer,
    mutate: async (query, variables, headers = writer) => (await graphql(t, query, variables, headers)).body,
    async refusedToViewer(asked) {
      const before = await t.services.store.readEvents(0, 100_000);
      for (const [field, query, variables] of asked) {
        const { status, body } = await graphql(t, query, variables, viewer);
        assert.equal(status, 200);
        assert.deepEqual(body, unauthorized(query, field), field);
      }
      assert.deepEqual(await t.services.store.readEvents(0, 100_000), before);
    },
    async aspectOf(urn, aspect) {
      const { status, body } = await t.call({ method: 'GET', url: `/openapi/v2/entity/${urn.split(':')[2]}/${encodeURIComponent(urn)}/${aspect}`, headers: admin });
      return status === 404 ? undefined : body.value;
    },
  };
}

/** Where `field` is called in `query` (graphql-js's location of the field's error): after the operation, named like it. */
export const at = (query: string, field: string) => [{ line: 1, column: query.lastIndexOf(`${field}(`) + 1 }];

/** A refusal of the field's input: DataHub's BAD_REQUEST. */
export const badRequest = (message: string, query: string, field: string) => ({ message, locations: at(query, field), path: [field], extensions: { code: 400, type: 'BAD_REQUEST' } });

/** A viewer's mutation: DataHub's UNAUTHORIZED, `field` answering null. */
export const unauthorized = (query: string, field: string) => ({
  data: { [field]: null },
  errors: [{ message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', locations: at(query, field), path: [field], extensions: { code: 403, type: 'UNAUTHORIZED' } }],
});
