import type { EntitySpec } from '../registry/registry.js';

/** The aspects an entity of this type may be given by default (defaultAspects), whatever its key. */
export function defaultAspectNames(entity: EntitySpec): string[] {
  return ['browsePathsV2', 'dataPlatformInstance'].filter((name) => entity.aspects.has(name));
}

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
