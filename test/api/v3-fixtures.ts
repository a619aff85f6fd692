import { enc } from '../helpers.js';

export const V3 = '/openapi/v3/entity';

/** The URL of an entity (or one of its aspects) on the v3 API; `type` is the path's entity name. */
export function v3Url(type: string, urn: string, aspect?: string): string {
  return `${V3}/${type}/${enc(urn)}${aspect ? `/${aspect}` : ''}`;
}
