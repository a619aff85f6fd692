import type { Registry } from '../registry/registry.js';
import type { PointCursor, Store } from '../store/store.js';
import { aspectNames, FORMAT_NAME, FORMAT_VERSION, keyAspectNames, type AspectRecord, type EndRecord, type HeaderRecord, type PointLine } from './format.js';

const PAGE = 500;

export interface ExportOptions {
  includeTokens: boolean;
  /** The header's time (tests fix it). */
  now?: Date;
}

/**
 * Writes the whole catalog as NDJSON through `write` (which resolves once the line may be
 * followed, so a slow reader holds the export back: memory stays constant). Uses only the Store
 * interface, so it reads SQLite and PostgreSQL alike. Writes made meanwhile may or may not be
 * included: export a store nobody writes to for an exact copy.
 */
export async function exportCatalog(store: Store, registry: Registry, options: ExportOptions, write: (line: string) => Promise<void>): Promise<EndRecord> {
  const header: HeaderRecord = { format: FORMAT_NAME, formatVersion: FORMAT_VERSION, exportedAt: (options.now ?? new Date()).toISOString() };
  await write(JSON.stringify(header));
  const keys = keyAspectNames(registry);
  const end: EndRecord = { kind: 'end', aspects: 0, versions: 0, entities: 0, tokens: 0 };
  for (const aspect of aspectNames(registry)) {
    let after: string | undefined;
    for (;;) {
      const page = await store.scanAspect(aspect, after, PAGE);
      for (const latest of page) {
        // Versions count 1, 2, … per change (storage version N of history is the value whose
        // systemMetadata.version is N), so earlier values are versions 1 .. latest - 1.
        const newest = Number(latest.systemMetadata.version);
        for (let version = 1; version < newest; version++) {
          const earlier = await store.getVersion(latest.urn, aspect, version);
          if (earlier) await writeVersion(earlier.urn, aspect, earlier.value, earlier.systemMetadata);
        }
        await writeVersion(latest.urn, aspect, latest.value, latest.systemMetadata);
        end.aspects++;
        if (keys.has(aspect)) end.entities++;
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].urn;
    }
  }
  let points = 0;
  for (const entity of registry.entityTypes()) {
    for (const aspect of entity.aspects.values()) {
      if (aspect.kind !== 'timeseries') continue;
      let after: PointCursor | undefined;
      for (;;) {
        const page = await store.scrollPoints(entity.name, aspect.name, { limit: PAGE, ...(after ? { after } : {}) });
        for (const p of page) {
          const record: PointLine = { kind: 'point', urn: p.urn, aspect: p.aspect, value: p.value, systemMetadata: p.systemMetadata, written: p.written };
          await write(JSON.stringify(record));
          points++;
        }
        if (page.length < PAGE) break;
        const last = page[page.length - 1];
        after = { timestampMillis: last.timestampMillis, id: last.id };
      }
    }
  }
  if (points > 0) end.points = points;
  if (options.includeTokens) {
    const tokens = (await store.listTokens()).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const token of tokens) {
      await write(JSON.stringify({ kind: 'token', ...token }));
      end.tokens++;
    }
  }
  await write(JSON.stringify(end));
  return end;

  async function writeVersion(urn: string, aspect: string, value: unknown, systemMetadata: AspectRecord['systemMetadata']): Promise<void> {
    const record: AspectRecord = { kind: 'aspect', urn, aspect, value, systemMetadata };
    await write(JSON.stringify(record));
    end.versions++;
  }
}
