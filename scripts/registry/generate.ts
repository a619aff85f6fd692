import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CARRIED, placedAnnotations } from './annotations.js';
import { parsePdl, type NamedType } from './pdl.js';
import { SchemaWriter, type Schema } from './schemas.js';

/**
 * urnbase's registry data from DataHub's model (`npm run registry:generate -- <datahub checkout>
 * [--source "<what was read>"]`): the entity types and their aspects from
 * `metadata-models/src/main/resources/entity-registry.yml`, each aspect's value type from the PDL
 * records (`@Aspect`) as JSON Schema, and what its annotations say: key fields, timeseries,
 * relationships (graph edges), searchable fields. Facts only: no doc comment is carried over.
 * Writes `entities.json`, `types.json` and `aspects/*.json` of the registry's data folder; the
 * hand-written data beside them (patch templates, seed, search) is left alone.
 */

/** Where PDL files live in a DataHub checkout. */
const PDL_ROOTS = ['metadata-models/src/main/pegasus', 'li-utils/src/main/pegasus'];
const REGISTRY_FILE = 'metadata-models/src/main/resources/entity-registry.yml';

/** The member of an aspect file each carried annotation goes to. */
const CARRIED_AS: Record<(typeof CARRIED)[number], string> = {
  Relationship: 'relationships',
  Searchable: 'searchable',
  TimeseriesField: 'timeseriesFields',
  TimeseriesFieldCollection: 'timeseriesFieldCollections',
};

interface RegistryFile {
  entities: Array<{ name: string; keyAspect: string; aspects?: string[]; category?: string }>;
}

export interface Generated {
  /** File name (relative to the data folder) → its text. */
  files: Map<string, string>;
  entityTypes: number;
  aspects: number;
  timeseries: number;
}

export function generate(checkout: string, source: string): Generated {
  const types = new Map<string, NamedType>();
  for (const root of PDL_ROOTS) {
    for (const file of pdlFiles(join(checkout, root))) {
      for (const type of parsePdl(readFileSync(file, 'utf8'), relative(checkout, file))) types.set(type.name, type);
    }
  }
  const aspectRecords = new Map<string, Extract<NamedType, { kind: 'record' }>>();
  for (const type of types.values()) {
    const aspect = type.kind === 'record' ? (type.annotations.Aspect as { name?: string } | undefined) : undefined;
    if (type.kind === 'record' && aspect?.name) aspectRecords.set(aspect.name, type);
  }
  const registry = parseYaml(readFileSync(join(checkout, REGISTRY_FILE), 'utf8')) as RegistryFile;
  const writer = new SchemaWriter(types, new Set(registry.entities.map((e) => e.name)));
  const header = { $generated: `by scripts/registry/generate.ts from DataHub's model (${source}); do not edit` };
  const files = new Map<string, string>();

  const entities = registry.entities.map((e) => {
    const aspects = [...new Set(e.aspects ?? [])].filter((a) => a !== e.keyAspect);
    for (const name of [e.keyAspect, ...aspects]) if (!aspectRecords.has(name)) throw new Error(`entity ${e.name}: no @Aspect record named ${name}`);
    return { name: e.name, keyAspect: e.keyAspect, aspects, ...(e.category ? { category: e.category } : {}) };
  });
  const keyAspects = new Set(entities.map((e) => e.keyAspect));
  const used = new Set(entities.flatMap((e) => [e.keyAspect, ...e.aspects]));
  let timeseries = 0;
  for (const name of [...used].sort()) {
    const record = aspectRecords.get(name)!;
    const kind = (record.annotations.Aspect as { type?: string }).type === 'timeseries' ? 'timeseries' : 'versioned';
    if (kind === 'timeseries') timeseries++;
    const placed = placedAnnotations(record, types, writer);
    const aspect: Schema = {
      ...header,
      name,
      pegasusClass: record.name,
      ...(kind === 'timeseries' ? { type: 'timeseries' } : {}),
      ...(keyAspects.has(name) ? { key: writer.fieldsOf(record).map((f) => f.name) } : {}),
      schema: writer.of({ kind: 'ref', name: record.name }),
    };
    for (const annotation of CARRIED) {
      const list = placed[annotation];
      if (list.length > 0) aspect[CARRIED_AS[annotation]] = list;
    }
    files.set(`aspects/${name}.json`, json(aspect));
  }
  files.set('entities.json', json({ ...header, entities }));
  const defs = Object.fromEntries([...writer.defs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // A schema document: its note goes in $comment, the one member JSON Schema has for it.
  files.set('types.json', json({ $id: 'types.json', $comment: header.$generated, $defs: defs }));
  return { files, entityTypes: entities.length, aspects: used.size, timeseries };
}

/** Writes the generated files into the data folder, replacing the aspect files there. */
export function writeGenerated(generated: Generated, dataDir: string): void {
  rmSync(join(dataDir, 'aspects'), { recursive: true, force: true });
  mkdirSync(join(dataDir, 'aspects'), { recursive: true });
  for (const [name, text] of generated.files) writeFileSync(join(dataDir, name), text);
}

function pdlFiles(dir: string): string[] {
  let found: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found = found.concat(pdlFiles(path));
    else if (name.endsWith('.pdl')) found.push(path);
  }
  return found;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 1)}\n`;
}
