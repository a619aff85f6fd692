import { ValidationError } from '../../errors.js';
import { parsePatchDocument } from '../../ingest/patch.js';
import type { Proposal } from '../../ingest/proposal.js';
import { isRecord } from '../../json.js';
import type { Registry } from '../../registry/registry.js';
import type { ChangeType } from '../../store/store.js';
import { parseUrn } from '../../urn/urn.js';
import { clientSystemMetadata } from '../entity-writes.js';
import { parseAspectJson } from './aspect-value.js';

const SUPPORTED: readonly ChangeType[] = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'PATCH', 'DELETE'];

/** DataHub's other change types, and why they are refused. */
const REFUSED: Record<string, string> = {
  UPDATE: 'changeType UPDATE is not supported (DataHub does not implement it either): use UPSERT or PATCH',
  RESTATE: 'changeType RESTATE is not supported: it re-emits an unchanged aspect to rebuild indexes, which urnbase keeps in step with every write',
};

const JSON_TYPE = 'application/json';
const PATCH_TYPE = 'application/json-patch+json';

/**
 * A MetadataChangeProposal as DataHub's emitters send it over Rest.li, checked and turned into
 * the write path's Proposal. `where` names it in errors (`proposal`, `proposals[3]`).
 */
export function proposalOf(mcp: unknown, where: string, registry: Registry): Proposal {
  if (!isRecord(mcp)) throw new ValidationError(`${where} must be an object (a MetadataChangeProposal)`);
  const urn = entityUrn(mcp, where, registry);
  const changeType = changeTypeOf(mcp.changeType, where);
  if (typeof mcp.aspectName !== 'string' || mcp.aspectName === '') throw new ValidationError(`${where}.aspectName is required`);
  const proposal: Proposal = { urn, aspect: mcp.aspectName, changeType };
  if (changeType === 'PATCH') proposal.patch = parsePatchDocument(aspectJson(mcp.aspect, where, [PATCH_TYPE, JSON_TYPE]));
  else if (changeType !== 'DELETE') proposal.value = aspectJson(mcp.aspect, where, [JSON_TYPE]);
  const systemMetadata = clientSystemMetadata(mcp.systemMetadata, `${where}.systemMetadata`);
  if (systemMetadata) proposal.systemMetadata = systemMetadata;
  return { ...proposal, ...conditions(mcp.headers, `${where}.headers`) };
}

/** The entity URN, which must be of the proposal's entityType. */
function entityUrn(mcp: Record<string, unknown>, where: string, registry: Registry): string {
  if (typeof mcp.entityType !== 'string' || mcp.entityType === '') throw new ValidationError(`${where}.entityType is required`);
  if (typeof mcp.entityUrn !== 'string') {
    throw new ValidationError(
      mcp.entityKeyAspect === undefined ? `${where}.entityUrn is required` : `${where}.entityUrn is required: an entityKeyAspect alone is not supported`,
    );
  }
  const entity = registry.entityOf(parseUrn(mcp.entityUrn));
  if (registry.entityType(mcp.entityType) !== entity) {
    throw new ValidationError(`${where}.entityType ${mcp.entityType} does not match the URN ${mcp.entityUrn}, which is of entity type ${entity.name}`);
  }
  return mcp.entityUrn;
}

function changeTypeOf(raw: unknown, where: string): ChangeType {
  if (typeof raw === 'string' && (SUPPORTED as readonly string[]).includes(raw)) return raw as ChangeType;
  if (typeof raw === 'string' && REFUSED[raw]) throw new ValidationError(`${where}: ${REFUSED[raw]}`);
  throw new ValidationError(`${where}.changeType must be one of ${SUPPORTED.join(', ')}`);
}

/** The GenericAspect's value, parsed, if its content type is one of `types`. */
function aspectJson(aspect: unknown, where: string, types: readonly string[]): unknown {
  if (!isRecord(aspect) || typeof aspect.value !== 'string') {
    throw new ValidationError(`${where}.aspect must be {"value": "<the aspect as a JSON string>", "contentType": "${types[0]}"}`);
  }
  // Media types are case-insensitive and may carry parameters (`; charset=utf-8`).
  const contentType = typeof aspect.contentType === 'string' ? aspect.contentType.split(';')[0].trim().toLowerCase() : undefined;
  if (contentType === undefined || !types.includes(contentType)) {
    throw new ValidationError(`${where}.aspect.contentType must be ${types.join(' or ')}, got ${JSON.stringify(aspect.contentType ?? null)}`);
  }
  return parseAspectJson(aspect.value, `${where}.aspect.value`);
}

/**
 * The proposal's headers: If-Version-Match and If-None-Match are honoured. DataHub's time
 * conditions are refused rather than ignored, since ignoring a condition would write what the
 * client meant to guard.
 */
function conditions(raw: unknown, where: string): Pick<Proposal, 'ifVersionMatch' | 'ifNoneMatch'> {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw) || !Object.values(raw).every((v) => typeof v === 'string')) throw new ValidationError(`${where} must map strings to strings`);
  const found: Pick<Proposal, 'ifVersionMatch' | 'ifNoneMatch'> = {};
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (lower === 'if-version-match') found.ifVersionMatch = value as string;
    else if (lower === 'if-none-match') found.ifNoneMatch = value as string;
    else if (lower === 'if-modified-since' || lower === 'if-unmodified-since') throw new ValidationError(`${where}: the ${name} condition is not supported; use If-Version-Match`);
  }
  return found;
}
