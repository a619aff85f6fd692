import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../errors.js';
import { parsePatchDocument } from '../ingest/patch.js';
import type { AppliedChange, ClientSystemMetadata, Proposal } from '../ingest/proposal.js';
import { isRecord } from '../json.js';
import type { AspectView, Reader } from '../read/read.js';
import type { EntitySpec } from '../registry/registry.js';
import type { ChangeType } from '../store/store.js';
import type { Urn } from '../urn/urn.js';

/**
 * What the v2 and v3 entity routes share on the way in (request parts → proposals, checked for
 * shape before anything is written) and on the way out (written values grouped per entity).
 */

/** An HTTP request header's (first) value. */
export function requestHeader(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The change type of a single-aspect write: createEntityIfNotExists wins over createIfNotExists. */
export function singleWriteType(createIfNotExists: boolean, createEntityIfNotExists: boolean): ChangeType {
  return createEntityIfNotExists ? 'CREATE_ENTITY' : createIfNotExists ? 'CREATE' : 'UPSERT';
}

/** `{value, systemMetadata?, headers?}`: one aspect of a write body, as an UPSERT (or CREATE…) proposal. */
export function aspectWrite(urn: string, aspect: string, wrapper: unknown, where: string, changeType: ChangeType = 'UPSERT'): Proposal {
  if (!isRecord(wrapper) || !('value' in wrapper)) throw new ValidationError(`${where}: expected {"value": …}`);
  return {
    urn,
    aspect,
    changeType,
    value: wrapper.value,
    systemMetadata: clientSystemMetadata(wrapper.systemMetadata, `${where}.systemMetadata`),
    ...conditions(wrapper.headers, `${where}.headers`),
  };
}

/** `{value: {patch, arrayPrimaryKeys?} | [op…], systemMetadata?, headers?}`: one aspect of a patch body. */
export function aspectPatch(urn: string, aspect: string, wrapper: unknown, where: string): Proposal {
  if (!isRecord(wrapper) || !('value' in wrapper)) throw new ValidationError(`${where}: expected {"value": {"patch": […]}}`);
  let patch;
  try {
    patch = parsePatchDocument(wrapper.value);
  } catch (error) {
    throw error instanceof ValidationError ? new ValidationError(`${where}.value: ${error.message}`) : error;
  }
  return {
    urn,
    aspect,
    changeType: 'PATCH',
    patch,
    systemMetadata: clientSystemMetadata(wrapper.systemMetadata, `${where}.systemMetadata`),
    ...conditions(wrapper.headers, `${where}.headers`),
  };
}

/** The conditions of an aspect's `headers` object that a proposal carries (only those given). */
export function conditions(headers: unknown, where: string): Pick<Proposal, 'ifVersionMatch' | 'ifNoneMatch'> {
  const found: Pick<Proposal, 'ifVersionMatch' | 'ifNoneMatch'> = {};
  const ifVersion = aspectHeader(headers, 'if-version-match', where);
  const ifNone = aspectHeader(headers, 'if-none-match', where);
  if (ifVersion !== undefined) found.ifVersionMatch = ifVersion;
  if (ifNone !== undefined) found.ifNoneMatch = ifNone;
  return found;
}

/** The If-Version-Match of an aspect's `headers` object. */
export function ifVersionMatch(headers: unknown, where: string): string | undefined {
  return aspectHeader(headers, 'if-version-match', where);
}

/** A header of an aspect's `headers` object (names are case-insensitive). */
function aspectHeader(headers: unknown, lowerName: string, where: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (!isRecord(headers)) throw new ValidationError(`${where} must be an object`);
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === lowerName && value !== undefined && value !== null) return String(value);
  }
  return undefined;
}

/** The conditions of a single-aspect request's HTTP headers (If-Version-Match, If-None-Match). */
export function requestConditions(req: FastifyRequest): Pick<Proposal, 'ifVersionMatch' | 'ifNoneMatch'> {
  const found: Pick<Proposal, 'ifVersionMatch' | 'ifNoneMatch'> = {};
  const ifVersion = requestHeader(req, 'if-version-match');
  const ifNone = requestHeader(req, 'if-none-match');
  if (ifVersion !== undefined) found.ifVersionMatch = ifVersion;
  if (ifNone !== undefined) found.ifNoneMatch = ifNone;
  return found;
}

/** The fields of systemMetadata a client may set; the server owns version and audit stamps. */
export function clientSystemMetadata(raw: unknown, where: string): ClientSystemMetadata | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) throw new ValidationError(`${where} must be an object`);
  const sm: ClientSystemMetadata = {};
  if (raw.runId !== undefined) {
    if (typeof raw.runId !== 'string') throw new ValidationError(`${where}.runId must be a string`);
    sm.runId = raw.runId;
  }
  if (raw.lastObserved !== undefined) {
    if (!Number.isSafeInteger(raw.lastObserved)) throw new ValidationError(`${where}.lastObserved must be an integer (epoch milliseconds)`);
    sm.lastObserved = raw.lastObserved as number;
  }
  if (raw.properties !== undefined) {
    const props = raw.properties;
    if (!isRecord(props) || !Object.values(props).every((v) => typeof v === 'string')) {
      throw new ValidationError(`${where}.properties must map strings to strings`);
    }
    sm.properties = props as Record<string, string>;
  }
  return sm;
}

/**
 * What DELETE of an entity removes: the named aspects (naming the key removes the entity), every
 * stored aspect but the key (`clear`), or else the whole entity (its key).
 */
export async function entityDeletion(reader: Reader, urn: Urn, entity: EntitySpec, names: readonly string[] | undefined, clear: boolean): Promise<Proposal[]> {
  let aspects: readonly string[];
  if (clear) {
    const stored = await reader.getEntity(urn.text);
    aspects = [...(stored?.aspects.keys() ?? [])].filter((a) => a !== entity.keyAspect.name);
  } else {
    aspects = names ?? [entity.keyAspect.name];
  }
  return aspects.map((aspect): Proposal => ({ urn: urn.text, aspect, changeType: 'DELETE' }));
}

/**
 * The changes with the key and default aspects that each one created its entity with, before it:
 * a synchronous batch write answers what it stored, as DataHub's does.
 */
export function withCreated(changes: readonly AppliedChange[]): AppliedChange[] {
  return changes.flatMap((change) => [...(change.created ?? []), change]);
}

/** Written values per entity, in first-seen order (a later write of an aspect wins); deletions are left out. */
export function writtenEntities(changes: readonly AppliedChange[]): Array<{ urn: string; aspects: Map<string, AspectView> }> {
  const byUrn = new Map<string, Map<string, AspectView>>();
  for (const change of changes) {
    if (change.value === undefined || !change.systemMetadata) continue;
    let aspects = byUrn.get(change.urn);
    if (!aspects) byUrn.set(change.urn, (aspects = new Map()));
    aspects.set(change.aspect, { value: change.value, systemMetadata: change.systemMetadata });
  }
  return [...byUrn].map(([urn, aspects]) => ({ urn, aspects }));
}
