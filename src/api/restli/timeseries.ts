import { ValidationError } from '../../errors.js';
import { isRecord } from '../../json.js';
import { quoted } from '../../limits.js';
import { parsePointFilter } from '../../read/point-filter.js';
import type { Reader } from '../../read/read.js';
import type { AspectSpec, EntitySpec, Registry } from '../../registry/registry.js';
import type { PointMetadata } from '../../store/store.js';

/** DataHub's default limit of getTimeseriesAspectValues, and the most urnbase answers at once. */
export const MAX_POINTS = 10_000;

/** One point as getTimeseriesAspectValues answers it: DataHub's EnvelopedAspect of its timeseries service. */
interface EnvelopedPoint {
  aspect: { value: string; contentType: 'application/json' };
  systemMetadata: PointMetadata;
}

interface TimeseriesValues {
  entityName: string;
  aspectName: string;
  startTimeMillis?: number;
  endTimeMillis?: number;
  limit: number;
  values: EnvelopedPoint[];
}

/**
 * `POST /aspects?action=getTimeseriesAspectValues`: an entity's points of a timeseries aspect,
 * newest first, as DataHub's AspectResource answers (each value a JSON string in a GenericAspect).
 * `latestValue: true` is the latest point alone (the CLI's `datahub get`); `limit` 1 with a filter
 * is how the Python graph client reads a checkpoint (get_latest_timeseries_value).
 */
export async function timeseriesValues(body: Record<string, unknown>, reader: Reader, registry: Registry): Promise<TimeseriesValues> {
  if (typeof body.urn !== 'string') throw new ValidationError('urn is required: the URN of the entity whose points to read');
  const { urn, entity } = reader.entityOf(body.urn);
  if (typeof body.entity !== 'string' || body.entity === '') throw new ValidationError('entity is required: the entity type of the URN');
  if (registry.entityType(body.entity) !== entity) throw new ValidationError(`entity ${body.entity} does not match the URN ${urn.text}, which is of entity type ${entity.name}`);
  if (typeof body.aspect !== 'string' || body.aspect === '') throw new ValidationError('aspect is required: the name of a timeseries aspect');
  const aspect = timeseriesAspect(entity, body.aspect, registry);
  const start = millis(body.startTimeMillis, 'startTimeMillis');
  const end = millis(body.endTimeMillis, 'endTimeMillis');
  const latestValue = flag(body.latestValue, 'latestValue');
  const limit = latestValue ? 1 : count(body.limit);
  checkSort(body.sort);
  const filter = parsePointFilter(body.filter, aspect, registry);
  const points = await reader.points(urn.text, aspect.name, { start, end, limit, filter });
  return {
    entityName: body.entity,
    aspectName: body.aspect,
    ...(start !== undefined ? { startTimeMillis: start } : {}),
    ...(end !== undefined ? { endTimeMillis: end } : {}),
    limit,
    values: points.map((p) => ({ aspect: { value: JSON.stringify(p.value), contentType: 'application/json' }, systemMetadata: p.systemMetadata })),
  };
}

/** The named aspect of the entity type, which must be a timeseries aspect. */
export function timeseriesAspect(entity: EntitySpec, name: string, registry: Registry): AspectSpec {
  const aspect = registry.aspectOf(entity, name);
  if (!aspect) throw new ValidationError(`Unknown aspect ${name} for entity type ${entity.name}`);
  if (aspect.kind !== 'timeseries') {
    throw new ValidationError(`${aspect.name} is not a timeseries aspect of ${entity.name}: its versions are read with GET /aspects/{urn}?aspect=${aspect.name}`);
  }
  return aspect;
}

/** Epoch millis, as a JSON number or Rest.li's string of digits; undefined when absent. */
export function millis(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new ValidationError(`${name} must be an integer (epoch milliseconds), got ${quoted(raw)}`);
  return n;
}

function count(raw: unknown): number {
  if (raw === undefined || raw === null) return MAX_POINTS;
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_POINTS) {
    throw new ValidationError(`limit must be an integer from 1 to ${MAX_POINTS.toLocaleString('en-US')}, got ${quoted(raw)}`);
  }
  return n;
}

function flag(raw: unknown, name: string): boolean {
  if (raw === undefined || raw === null || raw === false || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw new ValidationError(`${name} must be true or false, got ${quoted(raw)}`);
}

/** Points are answered newest first; that is the one order DataHub's clients ask for. */
function checkSort(raw: unknown): void {
  if (raw === undefined || raw === null) return;
  if (isRecord(raw) && raw.field === 'timestampMillis' && (raw.order === undefined || raw.order === 'DESCENDING')) return;
  throw new ValidationError('sort: points are answered newest first; only {"field": "timestampMillis", "order": "DESCENDING"} is supported');
}
