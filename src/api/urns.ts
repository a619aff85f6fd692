import { ValidationError } from '../errors.js';
import type { EntitySpec, Registry } from '../registry/registry.js';
import { parseUrn, type Urn } from '../urn/urn.js';

/**
 * A URN a request names (in its path or body), checked before anything is read: it parses, is
 * not too long, names a known entity type and carries a valid key — else 400 `Invalid urn!`.
 * Unchecked, a read of `urn:li:dataset:(x)` answered 404 as if such a dataset could exist.
 */
export function requestUrn(registry: Registry, text: string): { urn: Urn; entity: EntitySpec } {
  const urn = parseUrn(text);
  const entity = registry.entityOf(urn);
  registry.checkKey(urn, entity);
  return { urn, entity };
}

/** The entity type a path names (any case); an unknown one is a 400. */
export function pathEntityType(registry: Registry, name: string): EntitySpec {
  const spec = registry.entityType(name);
  if (!spec) throw new ValidationError(`Unknown entity type ${name}`);
  return spec;
}

/**
 * A URN under a path that names its entity type too (`/{type}/{urn}`): the two must agree, or
 * `GET /tag/<a dataset URN>` would answer with the dataset.
 */
export function typedUrn(registry: Registry, typeName: string, text: string): { urn: Urn; entity: EntitySpec } {
  const spec = pathEntityType(registry, typeName);
  const found = requestUrn(registry, text);
  if (found.entity !== spec) throw new ValidationError(`The URN ${text} is not of entity type ${spec.name}`);
  return found;
}
