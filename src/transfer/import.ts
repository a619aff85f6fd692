import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Registry } from '../registry/registry.js';
import { SearchFields } from '../search/fields.js';
import { GraphEdges } from '../graph/edges.js';
import { SearchIndexer } from '../search/indexer.js';
import { pointPlace } from '../ingest/point-key.js';
import type { AspectPut, Store, TimeseriesPoint } from '../store/store.js';
import { parseUrn } from '../urn/urn.js';
import {
  aspectNames,
  ImportFormatError,
  keyAspectNames,
  parseHeader,
  parseRecord,
  tokenOf,
  versionOf,
  type AspectRecord,
  type BodyRecord,
  type EndRecord,
} from './format.js';

const BATCH = 500;

export interface ImportOptions {
  includeTokens: boolean;
  /** Delete what the store holds first; without it a store holding entities is refused. */
  replace: boolean;
  /** Called with the number of versions written so far. */
  progress?: (versions: number, total: number) => void;
}

export interface ImportSummary {
  aspects: number;
  versions: number;
  entities: number;
  tokens: number;
  /** Timeseries points loaded. */
  points: number;
  /** Tokens in the file left out (no --include-tokens, or the store already has that id). */
  tokensSkipped: number;
}

/** The store already holds a catalog and --replace was not given. */
export class StoreNotEmptyError extends Error {
  override name = 'StoreNotEmptyError';
}

/** The lines of a file, numbered from 1, read as a stream. */
async function* lines(file: string): AsyncGenerator<[string, number]> {
  const reader = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  for await (const text of reader) yield [text, ++n];
}

/** The records after the header, checked one by one, then the end record's presence and place. */
async function* records(file: string, registry: Registry): AsyncGenerator<[BodyRecord, number]> {
  let ended = 0;
  let seen = 0;
  for await (const [text, n] of lines(file)) {
    seen = n;
    if (n === 1) {
      parseHeader(text);
      continue;
    }
    if (ended) throw new ImportFormatError(n, `nothing may follow the end record (line ${ended})`);
    const record = parseRecord(text, n, registry);
    if (record.kind === 'end') ended = n;
    yield [record, n];
  }
  if (seen === 0) throw new ImportFormatError(1, 'the file is empty');
  if (!ended) throw new ImportFormatError(seen, 'the file ends without an end record (truncated?)');
}

/**
 * Reads the whole file once before anything is written, so bad input (not NDJSON, a wrong
 * header, a malformed line, versions out of order, a truncated file) leaves the store as it was.
 */
export async function validateExport(file: string, registry: Registry): Promise<EndRecord> {
  const keys = keyAspectNames(registry);
  const counted: EndRecord = { kind: 'end', aspects: 0, versions: 0, entities: 0, tokens: 0 };
  let group: { urn: string; aspect: string; version: number } | undefined;
  let points = 0;
  for await (const [record, n] of records(file, registry)) {
    if (record.kind === 'aspect') {
      const version = versionOf(record);
      if (group && group.urn === record.urn && group.aspect === record.aspect) {
        if (version <= group.version) {
          throw new ImportFormatError(n, `version ${version} of ${record.aspect} of ${record.urn} follows version ${group.version}: versions must go oldest to newest`);
        }
        group.version = version;
      } else {
        group = { urn: record.urn, aspect: record.aspect, version };
        counted.aspects++;
        if (keys.has(record.aspect)) counted.entities++;
      }
      counted.versions++;
    } else if (record.kind === 'token') {
      counted.tokens++;
    } else if (record.kind === 'point') {
      points++;
    } else {
      for (const name of ['aspects', 'versions', 'entities', 'tokens'] as const) {
        if (record[name] !== counted[name]) {
          throw new ImportFormatError(n, `the end record counts ${record[name]} ${name}, the file holds ${counted[name]}`);
        }
      }
      if ((record.points ?? 0) !== points) throw new ImportFormatError(n, `the end record counts ${record.points ?? 0} points, the file holds ${points}`);
      if (points > 0) counted.points = points;
    }
  }
  return counted;
}

/** True when any entity exists (every entity has its key aspect). */
export async function holdsCatalog(store: Store, registry: Registry): Promise<boolean> {
  for (const entity of registry.entityTypes()) {
    if ((await store.listUrns(entity.keyAspect.name, undefined, 1)).length > 0) return true;
  }
  return false;
}

/** Removes every aspect with its history, and every timeseries point (no change-log events: nothing happened to the catalog's users). */
export async function clearCatalog(store: Store, registry: Registry): Promise<void> {
  for (const entity of registry.entityTypes()) {
    for (const aspect of entity.aspects.values()) {
      if (aspect.kind !== 'timeseries') continue;
      for (;;) {
        const page = await store.scrollPoints(entity.name, aspect.name, { limit: BATCH });
        if (page.length === 0) break;
        for (const urn of new Set(page.map((p) => p.urn))) await store.deletePoints({ urn, aspects: [aspect.name] });
      }
    }
  }
  for (const aspect of aspectNames(registry)) {
    for (;;) {
      const page = await store.scanAspect(aspect, undefined, BATCH);
      if (page.length === 0) break;
      const writes = page.map((row) => ({ kind: 'remove' as const, urn: row.urn, aspect, expectedVersion: Number(row.systemMetadata.version) }));
      await store.commit({ writes, events: [] });
    }
  }
}

/**
 * Loads a validated export: each aspect's versions are replayed oldest to newest as puts (the
 * previous version expected, system metadata as exported), so versions, history and system
 * metadata come out as they were. No change-log events are written: the log tells consumers
 * what changed from now on, and a replayed history would reach them as a flood of new changes
 * stamped with old times. The search index is rebuilt from the loaded aspects at the end.
 * Should the replay fail, what it wrote is removed again.
 */
export async function importExport(store: Store, registry: Registry, file: string, options: ImportOptions, validated?: EndRecord): Promise<ImportSummary> {
  const expected = validated ?? (await validateExport(file, registry));
  if (await holdsCatalog(store, registry)) {
    if (!options.replace) {
      throw new StoreNotEmptyError('the target store already holds a catalog: import into an empty store, or pass --replace to delete what it holds first');
    }
    await clearCatalog(store, registry);
  }
  const summary: ImportSummary = { aspects: expected.aspects, versions: expected.versions, entities: expected.entities, tokens: 0, points: expected.points ?? 0, tokensSkipped: 0 };
  try {
    await replay(store, registry, file, expected.versions, options.progress);
    await replayPoints(store, registry, file);
  } catch (error) {
    await clearCatalog(store, registry);
    await rebuildSearchIndex(store, registry);
    throw error;
  }
  const existing = new Set((await store.listTokens()).map((t) => t.id));
  for await (const [record] of records(file, registry)) {
    if (record.kind !== 'token') continue;
    if (!options.includeTokens || existing.has(record.id)) {
      summary.tokensSkipped++;
      continue;
    }
    await store.insertToken(tokenOf(record));
    summary.tokens++;
  }
  await rebuildSearchIndex(store, registry);
  return summary;
}

async function replay(store: Store, registry: Registry, file: string, total: number, progress?: ImportOptions['progress']): Promise<void> {
  let batch: Array<{ write: AspectPut; line: number; first: boolean }> = [];
  const keys = new Set<string>();
  let previous: { key: string; version: number } | undefined;
  let written = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    await refuseRepeatedAspects(store, batch.filter((b) => b.first));
    await store.commit({ writes: batch.map((b) => b.write), events: [] });
    written += batch.length;
    progress?.(written, total);
    batch = [];
    keys.clear();
  };

  for await (const [record, line] of records(file, registry)) {
    if (record.kind !== 'aspect') continue;
    const key = `${record.urn}\u0000${record.aspect}`;
    // One version of an aspect per batch: a batch's writes are not promised to see each other.
    if (keys.has(key) || batch.length >= BATCH) await flush();
    const first = previous?.key !== key;
    batch.push({ write: put(record, registry, first ? 0 : (previous?.version ?? 0)), line, first });
    keys.add(key);
    previous = { key, version: versionOf(record) };
  }
  await flush();
}

/** The points, in batches; a point's key is computed from its value as a write computes it. */
async function replayPoints(store: Store, registry: Registry, file: string): Promise<void> {
  let points: TimeseriesPoint[] = [];
  for await (const [record] of records(file, registry)) {
    if (record.kind !== 'point') continue;
    const entityType = registry.entityType(parseUrn(record.urn).entityType)!.name;
    points.push({ urn: record.urn, entityType, aspect: record.aspect, ...pointPlace(record.aspect, record.value), value: record.value, systemMetadata: record.systemMetadata, written: record.written });
    if (points.length >= BATCH) {
      await store.commit({ writes: [], events: [], points });
      points = [];
    }
  }
  if (points.length > 0) await store.commit({ writes: [], events: [], points });
}

function put(record: AspectRecord, registry: Registry, expectedVersion: number): AspectPut {
  const entityType = registry.entityType(parseUrn(record.urn).entityType)?.name ?? parseUrn(record.urn).entityType;
  return { kind: 'put', urn: record.urn, entityType, aspect: record.aspect, value: record.value, systemMetadata: record.systemMetadata, expectedVersion };
}

/** An aspect whose versions are not on consecutive lines would be written twice: name its line. */
async function refuseRepeatedAspects(store: Store, firsts: Array<{ write: AspectPut; line: number }>): Promise<void> {
  if (firsts.length === 0) return;
  const urns = [...new Set(firsts.map((f) => f.write.urn))];
  const aspects = [...new Set(firsts.map((f) => f.write.aspect))];
  const found = new Set((await store.getLatestMany(urns, aspects)).map((row) => `${row.urn}\u0000${row.aspect}`));
  const repeated = firsts.find((f) => found.has(`${f.write.urn}\u0000${f.write.aspect}`));
  if (repeated) {
    throw new ImportFormatError(
      repeated.line,
      `${repeated.write.aspect} of ${repeated.write.urn} appeared earlier in the file: an aspect's versions must be on consecutive lines`,
    );
  }
}

/** Forgets the index's and the graph's versions so that both are built again from every aspect. */
async function rebuildSearchIndex(store: Store, registry: Registry): Promise<void> {
  await store.setSearchIndexVersion('');
  await new SearchIndexer(registry, SearchFields.load(registry)).ensureBuilt(store);
  await store.setGraphVersion('');
  await new GraphEdges(registry).ensureBuilt(store);
}
