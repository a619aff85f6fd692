import type { PropertyDefinition } from '../structured/model.js';
import { propertiesFromYaml } from '../structured/yaml.js';
import { ApiClient, CLIENT_OPTIONS, clientFor, errorMessage, fromYamlFile, upsertAspect } from './client.js';
import { groupUsage, parseOrHelp, subcommand, type CommandSpec } from './command.js';
import { jsonEqual } from '../json.js';

export const PROPERTIES_UPSERT = {
  name: 'properties upsert',
  summary: 'Creates or updates structured property definitions from a YAML file, through the HTTP API.',
  options: { file: { type: 'string', short: 'f', value: 'FILE', required: true, help: 'the YAML file' }, ...CLIENT_OPTIONS },
  notes: [
    "The file is in DataHub's `datahub properties upsert` format.",
    'Prints created, updated, unchanged or the error per property; exit code 1 if any failed.',
  ],
} as const satisfies CommandSpec;

export const PROPERTIES_LIST = {
  name: 'properties list',
  summary: 'Lists structured property definitions (URN, type, cardinality, entity types, soft deletion) through the HTTP API.',
  options: CLIENT_OPTIONS,
} as const satisfies CommandSpec;

export const PROPERTIES_COMMANDS: readonly CommandSpec[] = [PROPERTIES_UPSERT, PROPERTIES_LIST];

const BASE = '/openapi/v2/entity/structuredProperty';

/** `urnbase properties …`: manage structured property definitions through the HTTP API. */
export async function propertiesCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const [sub, ...rest] = argv;
  const spec = subcommand('properties', PROPERTIES_COMMANDS, sub);
  if (spec === 'help') {
    out(groupUsage('properties', PROPERTIES_COMMANDS));
    return 0;
  }
  if (spec === PROPERTIES_UPSERT) {
    const parsed = parseOrHelp(PROPERTIES_UPSERT, rest, out);
    if (!parsed) return 0;
    return upsert(clientFor(PROPERTIES_UPSERT.name, parsed.values), parsed.values.file, out);
  }
  const parsed = parseOrHelp(PROPERTIES_LIST, rest, out);
  if (!parsed) return 0;
  return list(clientFor(PROPERTIES_LIST.name, parsed.values), out);
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
