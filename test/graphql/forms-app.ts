import assert from 'node:assert/strict';
import { enc, V2 } from '../helpers.js';
import { entityTypeOf } from '../../src/urn/urn.js';
import { at, mutationApp, type MutationApp } from './mutation-app.js';

/** What the forms tests share: the mutation app (auth on), admin writes over REST, the change log, DataHub's error shapes. */

export const ADMIN = 'urn:li:corpuser:admin';
export const STRING = 'urn:li:dataType:datahub.string';
export const NUMBER = 'urn:li:dataType:datahub.number';
export const DATASET_TYPE = 'urn:li:entityType:datahub.dataset';
export const CHART_TYPE = 'urn:li:entityType:datahub.chart';
export const FIELD_TYPE = 'urn:li:entityType:datahub.schemaField';

export interface FormsApp extends MutationApp {
  /** Writes an aspect over REST as the admin and asserts it was accepted. */
  put(urn: string, aspect: string, value: unknown): Promise<void>;
  /** Defines a structured property (string, single, for datasets unless told) as the admin; answers its URN. */
  property(id: string, overrides?: Record<string, unknown>): Promise<string>;
  /** Every change-log event so far: equal before and after a refusal, nothing was written. */
  events(): Promise<unknown[]>;
}

export async function formsApp(): Promise<FormsApp> {
  const m = await mutationApp();
  const put = async (urn: string, aspect: string, value: unknown) => {
    const res = await m.t.call({ method: 'POST', url: `${V2}/${entityTypeOf(urn)}/${enc(urn)}/${aspect}`, headers: m.admin, payload: value as object });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  return {
    ...m,
    put,
    async property(id, overrides = {}) {
      const urn = `urn:li:structuredProperty:${id}`;
      await put(urn, 'propertyDefinition', { qualifiedName: id, displayName: id, valueType: STRING, cardinality: 'SINGLE', entityTypes: [DATASET_TYPE], ...overrides });
      return urn;
    },
    events: () => m.t.services.store.readEvents(0, 100_000),
  };
}

const TYPES: Record<number, string> = { 400: 'BAD_REQUEST', 403: 'UNAUTHORIZED', 404: 'NOT_FOUND', 409: 'CONFLICT' };

/**
 * A refused mutation's whole answer: DataHub's error for the field, and its data: `{field: null}`
 * for a nullable field, null for a non-null one (the null reaches the root).
 */
export function refused(query: string, field: string, message: string, code = 400, nullable = true) {
  return { data: nullable ? { [field]: null } : null, errors: [{ message, locations: at(query, field), path: [field], extensions: { code, type: TYPES[code] } }] };
}
