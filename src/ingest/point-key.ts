import { ValidationError } from '../errors.js';
import { isRecord, jsonText } from '../json.js';

/** Where a timeseries point sits: its time, and the rest of DataHub's document key. */
export interface PointPlace {
  timestampMillis: number;
  /** messageId, partitionSpec.partition and eventGranularity as JSON text, or '' when the value has none of them. */
  key: string;
}

/**
 * A timeseries value's place. DataHub keys a timeseries document by its timestampMillis,
 * eventGranularity, URN, messageId and partitionSpec (TimeseriesAspectTransformer's document id),
 * so a second write with all of them equal replaces the point. The key starts with messageId so
 * that points of one time are ordered by it, as DataHub's scroll orders them.
 */
export function pointPlace(aspect: string, value: unknown): PointPlace {
  if (!isRecord(value) || value.timestampMillis === undefined) {
    throw new ValidationError(`${aspect}.timestampMillis is required: a timeseries aspect's value is a point in time (epoch milliseconds)`);
  }
  const time = value.timestampMillis;
  if (typeof time !== 'number' || !Number.isSafeInteger(time)) {
    throw new ValidationError(`${aspect}.timestampMillis must be an integer (epoch milliseconds), got ${jsonText(time)}`);
  }
  const spec = value.partitionSpec;
  if (isRecord(spec) && spec.partition !== undefined && spec.timePartition !== undefined) {
    throw new ValidationError(`${aspect}.partitionSpec may have partition or timePartition, not both`);
  }
  const messageId = typeof value.messageId === 'string' ? value.messageId : null;
  const partition = isRecord(spec) && typeof spec.partition === 'string' ? spec.partition : null;
  const granularity = isRecord(value.eventGranularity) ? canonical(value.eventGranularity) : null;
  const key = messageId === null && partition === null && granularity === null ? '' : JSON.stringify([messageId, partition, granularity]);
  return { timestampMillis: time, key };
}

/** JSON text with object keys sorted: the same granularity however a client orders its keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value);
}
