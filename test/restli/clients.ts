import type { InjectOptions } from 'fastify';

/**
 * Requests built the way DataHub's own clients build them, byte for byte where it matters:
 * the Python emitter (rest_emitter.py) and graph client (graph/client.py), and the Java
 * emitter (datahub-client RestEmitter) and v2 client.
 */

export interface Mcp {
  entityType: string;
  entityUrn: string;
  changeType: string;
  aspectName: string;
  /** The aspect value (or, for PATCH, the patch), serialized by the client into `aspect.value`. */
  aspect?: unknown;
  contentType?: string;
  systemMetadata?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Python's json.dumps: `", "` and `": "` separators, every char past ASCII as a \uXXXX escape. */
export function pyDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${pyDumps(k)}: ${pyDumps(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python's urllib.parse.quote(urn, safe=""), as Urn.url_encode does it. */
export function pyQuote(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Java's URLEncoder.encode(urn, UTF_8): like a form field, so a space becomes "+". */
export function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

const PY_VERSION = '1.2.0.1';

/** The headers every request of the Python emitter's session carries (GETs included). */
export function pythonHeaders(token?: string, mode = 'SDK'): Record<string, string> {
  return {
    'x-restli-protocol-version': '2.0.0',
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    'user-agent': `DataHub-Client/1.0 (${mode.toLowerCase()}; python_sdk/test_restli; ${PY_VERSION}) python-requests/2.32.3`,
    'x-datahub-client-mode': mode,
    'x-datahub-py-cli-version': PY_VERSION,
    accept: '*/*',
    'accept-encoding': 'gzip, deflate',
  };
}

/** What ensure_has_system_metadata fills in before the emitter sends a proposal. */
export function pythonSystemMetadata(runId = 'no-run-id-provided', lastObserved = Date.now()): Record<string, unknown> {
  return { lastObserved, runId, lastRunId: runId, properties: { clientId: 'acryl-datahub', clientVersion: PY_VERSION } };
}

/** An MCP as MetadataChangeProposalWrapper.to_obj() makes it: nulls left out, the aspect as a JSON string. */
function pythonMcp(mcp: Mcp): Record<string, unknown> {
  const patch = mcp.changeType === 'PATCH';
  return {
    entityType: mcp.entityType,
    entityUrn: mcp.entityUrn,
    changeType: mcp.changeType,
    aspectName: mcp.aspectName,
    ...(mcp.aspect === undefined
      ? {}
      : { aspect: { value: pyDumps(mcp.aspect), contentType: mcp.contentType ?? (patch ? 'application/json-patch+json' : 'application/json') } }),
    systemMetadata: mcp.systemMetadata ?? pythonSystemMetadata(),
    ...(mcp.headers ? { headers: mcp.headers } : {}),
  };
}

/** `emit_mcp` in Rest.li mode: `POST /aspects?action=ingestProposal`, `async` as a string. */
export function pythonEmit(mcp: Mcp, token?: string, async = false): InjectOptions {
  return {
    method: 'POST',
    url: '/aspects?action=ingestProposal',
    headers: pythonHeaders(token),
    payload: pyDumps({ proposal: pythonMcp(mcp), async: async ? 'true' : 'false' }),
  };
}

/** `emit_mcps` in Rest.li mode (and the datahub-rest sink's ASYNC_BATCH): one batch of proposals. */
export function pythonEmitBatch(mcps: Mcp[], token?: string, async = true): InjectOptions {
  return {
    method: 'POST',
    url: '/aspects?action=ingestProposalBatch',
    headers: pythonHeaders(token, 'INGESTION'),
    payload: pyDumps({ proposals: mcps.map(pythonMcp), async: async ? 'true' : 'false' }),
  };
}

/** DataHubGraph.get_aspect: `GET /aspects/{quoted urn}?aspect=…&version=…`. */
export function pythonGetAspect(urn: string, aspect: string, version = 0, token?: string): InjectOptions {
  return { method: 'GET', url: `/aspects/${pyQuote(urn)}?aspect=${aspect}&version=${version}`, headers: pythonHeaders(token) };
}

/** DataHubGraph.get_entity_raw: `GET /entitiesV2/{quoted urn}[?aspects=List(a,b)]`, the parentheses as they are. */
export function pythonGetEntity(urn: string, aspects?: string[], token?: string): InjectOptions {
  const query = aspects ? `?aspects=List(${aspects.join(',')})` : '';
  return { method: 'GET', url: `/entitiesV2/${pyQuote(urn)}${query}`, headers: pythonHeaders(token) };
}

/** DataHubGraph.hard_delete_entity: `POST /entities?action=delete {"urn": …}`. */
export function pythonHardDelete(urn: string, token?: string): InjectOptions {
  return { method: 'POST', url: '/entities?action=delete', headers: pythonHeaders(token), payload: pyDumps({ urn }) };
}

/** The Java emitter's headers (it also sets a fixed Host, which a server must not rely on). */
export function javaHeaders(token?: string): Record<string, string> {
  return {
    'content-type': 'application/json; charset=UTF-8',
    'x-restli-protocol-version': '2.0.0',
    accept: 'application/json',
    host: 'sangam.datahub-gms.dsp.io',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/**
 * Pegasus writes a `bytes` field one char per byte: the aspect's UTF-8 bytes, each as the char
 * of the same number (so "é", bytes C3 A9, travels as "Ã©").
 */
export function pegasusBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** RestEmitter.emit: `{"proposal": <Pegasus JSON of the MCP>}`, compact, no `async`, chars past ASCII as they are. */
export function javaEmit(mcp: Mcp, token?: string): InjectOptions {
  const proposal = {
    entityType: mcp.entityType,
    entityUrn: mcp.entityUrn,
    changeType: mcp.changeType,
    aspectName: mcp.aspectName,
    ...(mcp.aspect === undefined ? {} : { aspect: { contentType: mcp.contentType ?? 'application/json', value: pegasusBytes(JSON.stringify(mcp.aspect)) } }),
    ...(mcp.headers ? { headers: mcp.headers } : {}),
  };
  return { method: 'POST', url: '/aspects?action=ingestProposal', headers: javaHeaders(token), payload: Buffer.from(JSON.stringify({ proposal }), 'utf8') };
}

/** The Java v2 client's read: `GET /entitiesV2/{URL-encoded urn}?aspects=List(name)&systemMetadata=true`. */
export function javaGetEntity(urn: string, aspect: string, token?: string): InjectOptions {
  const { 'content-type': _none, ...headers } = javaHeaders(token);
  return { method: 'GET', url: `/entitiesV2/${javaUrlEncode(urn)}?aspects=List(${aspect})&systemMetadata=true`, headers };
}

/** The Rest.li error body's members every refusal has; `message` is what the clients show. */
export function restliError(status: number, message: string): Record<string, unknown> {
  const exceptionClass = status === 404 ? 'com.linkedin.metadata.restli.NonExceptionHttpErrorResponse' : 'com.linkedin.restli.server.RestLiServiceException';
  return { exceptionClass, message, status, stackTrace: `${exceptionClass} [HTTP Status:${status}]: ${message}` };
}
