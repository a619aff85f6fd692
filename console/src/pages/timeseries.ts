import { api } from '../api';

/**
 * Timeseries aspects (`datasetProfile`, `operation`, …) are points in time, not versions: they are
 * read through Rest.li's `getTimeseriesAspectValues`, newest first, each value a JSON string.
 */
interface Answer {
  value: { values?: Array<{ aspect?: { value?: string; contentType?: string } }> };
}

/** The latest `limit` points of an entity's timeseries aspect, newest first. */
export async function timeseriesValues<T>(urn: string, entity: string, aspect: string, limit: number, signal?: AbortSignal): Promise<T[]> {
  const { body } = await api<Answer>('POST', '/aspects?action=getTimeseriesAspectValues', {
    headers: { 'X-RestLi-Protocol-Version': '2.0.0' },
    body: { urn, entity, aspect, limit },
    signal,
  });
  return (body.value.values ?? []).map((point, i) => {
    try {
      return JSON.parse(point.aspect?.value ?? '') as T;
    } catch {
      throw new Error(`Point ${i + 1} of ${aspect} is not JSON`);
    }
  });
}
