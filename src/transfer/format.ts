import { isRecord } from '../json.js';
import type { EntitySpec, Registry } from '../registry/registry.js';
import { pointPlace } from '../ingest/point-key.js';
import type { AuditStamp, PointMetadata, SystemMetadata, TokenRecord } from '../store/store.js';
import { parseUrn } from '../urn/urn.js';

/**
 * The export format: NDJSON, one record a line. A header first, then every version of every
 * aspect (grouped by aspect name, URNs in order, versions oldest to newest), then every point of
 * the timeseries aspects, then tokens when asked for, then an end record with the counts, so a
 * truncated file is told from a whole one. (`points` in the end record only when there are any:
 * a catalog without points exports as it always did.)
 */
export const FORMAT_NAME = 'urnbase-export';
export const FORMAT_VERSION = 1;

export interface HeaderRecord {
  format: typeof FORMAT_NAME;
  formatVersion: typeof FORMAT_VERSION;
  exportedAt: string;
}

export interface AspectRecord {
  kind: 'aspect';
  urn: string;
  aspect: string;
  value: unknown;
  systemMetadata: SystemMetadata;
}

/** One point of a timeseries aspect (its key is computed again from the value on import). */
export interface PointLine {
  kind: 'point';
  urn: string;
  aspect: string;
  value: unknown;
  systemMetadata: PointMetadata;
  written: AuditStamp;
}

export interface TokenLine extends TokenRecord {
  kind: 'token';
}

export interface EndRecord {
  kind: 'end';
  aspects: number;
  versions: number;
  entities: number;
  tokens: number;
  /** Timeseries points; absent in files without any (and in files of an urnbase before them). */
  points?: number;
}

export type BodyRecord = AspectRecord | PointLine | TokenLine | EndRecord;

/** A bad line of an import file: exit 2 and a message naming the line. */
export class ImportFormatError extends Error {
  override name = 'ImportFormatError';
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** Every aspect name the registry knows, sorted: what an export walks. */
export function aspectNames(registry: Registry): string[] {
  return [...new Set(registry.entityTypes().flatMap((e) => [...e.aspects.keys()]))].sort();
}

/** Key aspects name entities: one per entity, so they count entities. */
export function keyAspectNames(registry: Registry): Set<string> {
  return new Set(registry.entityTypes().map((e) => e.keyAspect.name));
}

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ImportFormatError(line, `not JSON (${(error as Error).message})`);
  }
}

export function parseHeader(text: string): HeaderRecord {
  const header = parseJson(text, 1);
  if (!isRecord(header) || header.format !== FORMAT_NAME) {
    throw new ImportFormatError(1, `not an urnbase export (the first line must be a header with "format": "${FORMAT_NAME}")`);
  }
  if (header.formatVersion !== FORMAT_VERSION) {
    throw new ImportFormatError(1, `format version ${JSON.stringify(header.formatVersion)} is not supported (this urnbase reads version ${FORMAT_VERSION})`);
  }
  if (typeof header.exportedAt !== 'string') throw new ImportFormatError(1, 'the header has no exportedAt time');
  return header as unknown as HeaderRecord;
}

/** Parses and checks one record after the header (shape only; order is checked by the reader). */
export function parseRecord(text: string, line: number, registry: Registry): BodyRecord {
  if (text.trim() === '') throw new ImportFormatError(line, 'empty line');
  const record = parseJson(text, line);
  if (!isRecord(record)) throw new ImportFormatError(line, 'expected a JSON object');
  const fail = (reason: string): never => {
    throw new ImportFormatError(line, reason);
  };
  switch (record.kind) {
    case 'aspect': {
      const entity = entityOfRecord(record, registry, fail);
      if (typeof record.aspect !== 'string' || !entity.aspects.has(record.aspect)) {
        fail(`unknown aspect ${JSON.stringify(record.aspect)} for entity type ${entity.name}`);
      }
      if (record.value === undefined || record.value === null) fail('value is missing');
      checkSystemMetadata(record.systemMetadata, fail);
      return record as unknown as AspectRecord;
    }
    case 'point': {
      const entity = entityOfRecord(record, registry, fail);
      const aspect = typeof record.aspect === 'string' ? entity.aspects.get(record.aspect) : undefined;
      if (aspect?.kind !== 'timeseries') fail(`${JSON.stringify(record.aspect)} is not a timeseries aspect of entity type ${entity.name}`);
      try {
        pointPlace(record.aspect as string, record.value);
      } catch (error) {
        fail((error as Error).message);
      }
      if (!isRecord(record.systemMetadata) || typeof record.systemMetadata.lastObserved !== 'number') fail('systemMetadata must be {lastObserved, …}');
      if (!isRecord(record.written) || typeof record.written.time !== 'number' || typeof record.written.actor !== 'string') fail('written must be {time, actor}');
      return record as unknown as PointLine;
    }
    case 'token':
      checkToken(record, fail);
      return record as unknown as TokenLine;
    case 'end':
      for (const count of ['aspects', 'versions', 'entities', 'tokens']) {
        if (!Number.isSafeInteger(record[count]) || (record[count] as number) < 0) fail(`end record: ${count} must be a count`);
      }
      if (record.points !== undefined && (!Number.isSafeInteger(record.points) || (record.points as number) < 0)) fail('end record: points must be a count');
      return record as unknown as EndRecord;
    default:
      return fail(`unknown record kind ${JSON.stringify(record.kind)} (expected aspect, point, token or end)`);
  }
}

/** The version of a checked aspect record. */
export function versionOf(record: AspectRecord): number {
  return Number(record.systemMetadata.version);
}

function checkSystemMetadata(sm: unknown, fail: (reason: string) => never): void {
  if (!isRecord(sm)) fail('systemMetadata must be an object');
  const metadata = sm as Record<string, unknown>;
  if (typeof metadata.version !== 'string' || !/^[1-9]\d{0,14}$/.test(metadata.version)) {
    fail('systemMetadata.version must be a positive whole number as a string');
  }
  if (typeof metadata.lastObserved !== 'number') fail('systemMetadata.lastObserved must be a number');
  for (const stamp of ['aspectCreated', 'aspectModified']) {
    const value = metadata[stamp];
    if (!isRecord(value) || typeof value.time !== 'number' || typeof value.actor !== 'string') {
      fail(`systemMetadata.${stamp} must be {time, actor}`);
    }
  }
}

const ROLES = ['admin', 'editor', 'viewer'];

function checkToken(token: Record<string, unknown>, fail: (reason: string) => never): void {
  for (const field of ['id', 'name', 'actor', 'createdBy']) if (typeof token[field] !== 'string') fail(`token ${field} must be a string`);
  if (!ROLES.includes(token.role as string)) fail(`token role must be one of ${ROLES.join(', ')}`);
  if (typeof token.hash !== 'string' || !/^[0-9a-f]{64}$/.test(token.hash)) fail('token hash must be a SHA-256 hex digest');
  if (typeof token.createdAt !== 'number') fail('token createdAt must be a number');
  for (const field of ['expiresAt', 'lastUsedAt', 'revokedAt']) {
    if (token[field] !== null && typeof token[field] !== 'number') fail(`token ${field} must be a number or null`);
  }
}

/** A token as stored, without the record kind. */
export function tokenOf(line: TokenLine): TokenRecord {
  const { kind: _kind, ...token } = line;
  return token;
}

/** The entity type of an aspect's or a point's `urn`, or the line's refusal. */
function entityOfRecord(record: Record<string, unknown>, registry: Registry, fail: (reason: string) => never): EntitySpec {
  if (typeof record.urn !== 'string') fail('urn must be a string');
  let entityType: string;
  try {
    entityType = parseUrn(record.urn as string).entityType;
  } catch {
    return fail(`invalid urn ${JSON.stringify(record.urn)}`);
  }
  return registry.entityType(entityType) ?? fail(`unknown entity type ${entityType}`);
}
