import { parseArgs } from 'node:util';
import { ConfigError } from '../config.js';
import type { PropertyDefinition } from '../structured/model.js';
import { propertiesFromYaml } from '../structured/yaml.js';
import { ApiClient, errorMessage, fromYamlFile, upsertAspect } from './client.js';
import { jsonEqual } from '../json.js';

const USAGE = `usage: urnbase properties upsert -f <file.yaml> [--url URL] [--token TOKEN]
       urnbase properties list [--url URL] [--token TOKEN]

--url defaults to $URNBASE_URL or http://127.0.0.1:8080; --token to $URNBASE_TOKEN.`;

const BASE = '/openapi/v2/entity/structuredProperty';

/** `urnbase properties …`: manage structured property definitions through the HTTP API. */
export async function propertiesCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  let values: { file?: string; url?: string; token?: string };
  try {
    values = parseArgs({
      args: rest,
      options: { file: { type: 'string', short: 'f' }, url: { type: 'string' }, token: { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new ConfigError((error as Error).message.split('\n')[0]);
  }
  const client = new ApiClient({
    url: values.url ?? process.env.URNBASE_URL ?? 'http://127.0.0.1:8080',
    token: values.token ?? process.env.URNBASE_TOKEN,
  });
  if (sub === 'upsert') {
    if (!values.file) throw new ConfigError('properties upsert needs -f <file.yaml>');
    return upsert(client, values.file, out);
  }
  if (sub === 'list') return list(client, out);
  throw new ConfigError(`unknown properties command ${JSON.stringify(sub ?? '')}\n${USAGE}`);
}

/** Creates or updates each property of the file; reports created, updated, unchanged or the error. */
async function upsert(client: ApiClient, file: string, out: (line: string) => void): Promise<number> {
  const properties = fromYamlFile(file, (text) => propertiesFromYaml(text, file), out);
  if (!properties) return 1;
  let failed = 0;
  for (const { urn, definition } of properties) {
    const path = `${BASE}/${encodeURIComponent(urn)}/propertyDefinition`;
    const outcome = await upsertAspect(client, path, urn, definition, (stored) => jsonEqual(stored, definition));
    out(outcome.line);
    if (outcome.failed) failed++;
  }
  return failed > 0 ? 1 : 0;
}

/** One line per property: URN, type, cardinality, entity types, and whether it is soft deleted. */
async function list(client: ApiClient, out: (line: string) => void): Promise<number> {
  let scrollId: string | undefined;
  do {
    const page = await client.request('GET', `${BASE}?count=1000&includeSoftDelete=true&aspects=propertyDefinition,status${scrollId ? `&scrollId=${scrollId}` : ''}`);
    if (page.status !== 200) {
      out(`error     ${errorMessage(page)}`);
      return 1;
    }
    const body = page.body as { scrollId?: string; results: Array<{ urn: string; aspects: Record<string, { value: unknown }> }> };
    for (const { urn, aspects } of body.results) {
      const d = aspects.propertyDefinition?.value as PropertyDefinition | undefined;
      if (!d) continue;
      const removed = (aspects.status?.value as { removed?: boolean } | undefined)?.removed ? '  (soft deleted)' : '';
      const types = d.entityTypes.map((t) => t.replace('urn:li:entityType:datahub.', '')).join(',');
      out(`${urn}  ${d.valueType.replace('urn:li:dataType:datahub.', '')}  ${d.cardinality ?? 'SINGLE'}  ${types}${removed}`);
    }
    scrollId = body.scrollId;
  } while (scrollId);
  return 0;
}
