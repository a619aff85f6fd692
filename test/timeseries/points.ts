import type { InjectOptions } from 'fastify';
import { pyDumps, pythonEmit, pythonHeaders } from '../restli/clients.js';

/** A datasetProfile point as a profiler emits it. */
export function profile(timestampMillis: number, rowCount: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { timestampMillis, rowCount, columnCount: 3, ...extra };
}

/** `emit_mcp` of a datasetProfile point through Rest.li. */
export function emitProfile(urn: string, value: Record<string, unknown>, systemMetadata?: Record<string, unknown>): InjectOptions {
  return pythonEmit({ entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProfile', aspect: value, ...(systemMetadata ? { systemMetadata } : {}) });
}

/** `POST /aspects?action=getTimeseriesAspectValues` with the body as given, sent as the Python client sends it. */
export function timeseriesValues(body: Record<string, unknown>): InjectOptions {
  return { method: 'POST', url: '/aspects?action=getTimeseriesAspectValues', headers: pythonHeaders(), payload: pyDumps(body) };
}

/** The values of a getTimeseriesAspectValues answer, parsed back from their JSON strings. */
export function pointValues(body: { value: { values: Array<{ aspect: { value: string } }> } }): unknown[] {
  return body.value.values.map((v) => JSON.parse(v.aspect.value));
}
