import type { Registry } from '../registry/registry.js';
import { isUrn, parseUrn } from '../urn/urn.js';

const PLATFORM = 'urn:li:dataPlatform:';

/**
 * The data platform an entity lives on, from its URN's key as DataHub's model names it: a
 * dataset's `platform`, a flow's `orchestrator`, a chart's or dashboard's `dashboardTool`; a job
 * is on its flow's, a schema field on its dataset's. Undefined for entities with none (a tag).
 */
export function platformOf(registry: Registry, urnText: string): string | undefined {
  for (let text: string | undefined = urnText, depth = 0; text !== undefined && depth < 4; depth++) {
    const urn = parseUrn(text);
    const fields = registry.entityType(urn.entityType)?.keyAspect.keyFields ?? [];
    if (fields.length !== urn.parts.length) return undefined;
    const key = new Map(fields.map((field, i) => [field, urn.parts[i]]));
    const named = key.get('platform') ?? key.get('orchestrator') ?? key.get('dashboardTool');
    if (named !== undefined) return named.startsWith(PLATFORM) ? named : `${PLATFORM}${named}`;
    // A job's flow, a field's dataset: the platform is the container's.
    text = [key.get('flow'), key.get('parent')].find((u) => u !== undefined && isUrn(u));
  }
  return undefined;
}

/** A platform as a request names it: its URN, or its name alone (`snowflake`). */
export function platformUrn(text: string): string {
  return text.startsWith(PLATFORM) ? text : `${PLATFORM}${text}`;
}
