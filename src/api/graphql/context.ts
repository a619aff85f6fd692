import type { Principal } from '../../auth/roles.js';
import type { Services } from '../../services.js';
import type { EntityTypes } from './entity-types.js';
import type { EntityLoader } from './loaders.js';

/** What every resolver of one request is given. */
export interface GraphQLContext {
  services: Services;
  types: EntityTypes;
  /** This request's batched entity reads. */
  entities: EntityLoader;
  /** This request's batched reads of datasets' schemas (loaders.ts SCHEMA_ASPECTS). */
  schemas: EntityLoader;
  principal: Principal | null;
  /** Fires when the client has gone (api/client-gone.ts). */
  signal: AbortSignal;
}
