import { jsonText } from '../../json.js';
import type { SystemMetadata } from '../store.js';

/**
 * System metadata in compact columns instead of a JSON text per row. Nearly every row's is
 *   {"version":"V","lastObserved":T,["runId":"R",]"properties":{"eventSource":"S"},
 *    "aspectCreated":{"time":Tc,"actor":"Ac"},"aspectModified":{"time":T,"actor":"A"}}
 * where V, T and A are columns the row has anyway (version, created_on, created_by). Such a
 * row keeps only what differs: sm_observed (lastObserved when not T), sm_run, sm_source,
 * sm_created_on and sm_created_by (aspectCreated when not T and A); its system_metadata column
 * holds ''. Any other shape (a client's properties, other key orders, numbers that are not
 * safe integers, strings JSON would escape) keeps its JSON text whole, as before.
 *
 * Reads rebuild the text in SQL (`systemMetadataSql`), so reading is unchanged above the store;
 * a row is written compact only when the JS twin of that expression (`rebuilt`) gives back the
 * very text the JSON column would have held, byte for byte.
 */
export const SM_COLUMNS = ['sm_observed', 'sm_run', 'sm_source', 'sm_created_on', 'sm_created_by'] as const;

export type SmValues = [observed: number | null, run: string | null, source: string | null, createdOn: number | null, createdBy: string | null];

/** The columns to write: the JSON text ('' when compact; `missing` when there is none) and the compact values. */
export function encodeSystemMetadata(sm: SystemMetadata, version: number, time: number, actor: string): [json: string, ...SmValues] {
  const compact = compactValues(sm, version, time, actor);
  // The write path's own metadata has the layout `rebuilt` writes, which is cheaper to check
  // than JSON text is to make (a tenth of a put's work); anything else is compared as text.
  if (compact && hasRebuiltLayout(sm, version, time, actor)) return ['', ...compact];
  const text = jsonText(sm);
  return compact && rebuilt(version, time, actor, compact) === text ? ['', ...compact] : [text, null, null, null, null, null];
}

const LAYOUT = ['version', 'lastObserved', 'properties', 'aspectCreated', 'aspectModified'].join();
const LAYOUT_WITH_RUN = ['version', 'lastObserved', 'runId', 'properties', 'aspectCreated', 'aspectModified'].join();
const STAMP = ['time', 'actor'].join();

/**
 * Whether JSON.stringify would write `sm` as `rebuilt` does, for metadata compactValues accepted
 * (its strings plain, its integers safe): the same keys in the same order, the version as the
 * row's, and aspectModified the row's time and actor.
 */
function hasRebuiltLayout(sm: SystemMetadata, version: number, time: number, actor: string): boolean {
  const keys = Object.keys(sm).join();
  if (keys !== (sm.runId === undefined ? LAYOUT : LAYOUT_WITH_RUN)) return false;
  const { aspectCreated, aspectModified } = sm;
  return (
    sm.version === String(version) &&
    Object.keys(aspectCreated).join() === STAMP &&
    Object.keys(aspectModified).join() === STAMP &&
    aspectModified.time === time &&
    aspectModified.actor === actor
  );
}

function compactValues(sm: SystemMetadata, version: number, time: number, actor: string): SmValues | undefined {
  const props = sm.properties;
  if (!props || Object.keys(props).length !== 1 || typeof props.eventSource !== 'string') return undefined;
  if (!Number.isSafeInteger(version) || !Number.isSafeInteger(time) || !Number.isSafeInteger(sm.lastObserved)) return undefined;
  const created = sm.aspectCreated;
  if (!created || !Number.isSafeInteger(created.time) || !plain(created.actor) || !plain(actor) || !plain(props.eventSource)) return undefined;
  if (sm.runId !== undefined && !plain(sm.runId)) return undefined;
  return [
    sm.lastObserved === time ? null : sm.lastObserved,
    sm.runId ?? null,
    props.eventSource,
    created.time === time ? null : created.time,
    created.actor === actor ? null : created.actor,
  ];
}

/**
 * A string JSON writes as it is, between quotes: SQL may then quote it by concatenation. (No
 * quote, backslash, control character or surrogate: JSON escapes lone surrogates, and paired ones
 * are rare enough in actors and run ids to keep their JSON.)
 */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
function plain(s: unknown): s is string {
  return typeof s === 'string' && PLAIN.test(s);
}

/** The JSON text compact columns stand for (the twin of systemMetadataSql). */
function rebuilt(version: number, time: number, actor: string, [observed, run, source, createdOn, createdBy]: SmValues): string {
  return (
    `{"version":"${version}","lastObserved":${observed ?? time}${run === null ? '' : `,"runId":"${run}"`},"properties":{"eventSource":"${source}"},` +
    `"aspectCreated":{"time":${createdOn ?? time},"actor":"${createdBy ?? actor}"},"aspectModified":{"time":${time},"actor":"${actor}"}}`
  );
}

/**
 * SQL giving a row's system metadata as JSON text (NULL when the row has none: a DELETE event),
 * `t` the table's alias. Integers concatenate as JS writes them (only safe integers are compact).
 */
export function systemMetadataSql(t: string): string {
  return `CASE WHEN ${t}.sm_source IS NULL THEN ${t}.system_metadata ELSE
    '{"version":"' || ${t}.version || '","lastObserved":' || coalesce(${t}.sm_observed, ${t}.created_on)
    || coalesce(',"runId":"' || ${t}.sm_run || '"', '') || ',"properties":{"eventSource":"' || ${t}.sm_source
    || '"},"aspectCreated":{"time":' || coalesce(${t}.sm_created_on, ${t}.created_on) || ',"actor":"' || coalesce(${t}.sm_created_by, ${t}.created_by)
    || '"},"aspectModified":{"time":' || ${t}.created_on || ',"actor":"' || ${t}.created_by || '"}}' END`;
}
