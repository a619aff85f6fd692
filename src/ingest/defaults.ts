import type { EntitySpec } from '../registry/registry.js';

/**
 * Aspects DataHub materialises when an entity is first created, besides its key: a default browse
 * path, and the platform instance for entities whose key names a platform.
 */
export function defaultAspects(entity: EntitySpec, key: Record<string, string>): Array<[string, unknown]> {
  const defaults: Array<[string, unknown]> = [];
  if (entity.aspects.has('browsePathsV2')) defaults.push(['browsePathsV2', { path: [{ id: 'Default' }] }]);
  if (entity.aspects.has('dataPlatformInstance') && key.platform) {
    defaults.push(['dataPlatformInstance', { platform: key.platform }]);
  }
  return defaults;
}
