import { useEffect, useState } from 'preact/hooks';
import { api, enc, V3 } from '../api';
import { Breakable, shortUrn } from '../components/common';
import { href } from '../router';
import { aspect, DISPLAY_ASPECTS, entityTypeOf, nameOf, type EntityV3 } from './entity-info';

/**
 * Where an entity sits, at the top of its page: its browse path (`browsePathsV2.path`, entries
 * with an `id` and, for entities, a `urn`), its subtypes (`subTypes.typeNames`) and its container
 * with the containers that hold it (`container.container`, followed one read per level).
 */

/** How many containers up the chain is followed (DataHub's are a few levels deep). */
const MAX_CONTAINERS = 8;
/** What a container or a browse-path entity is read with: its name, and its own container. */
const BRIEF = [...DISPLAY_ASPECTS, 'container'].join(',');

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const isUrn = (v: string) => v.startsWith('urn:li:');

interface BrowseEntry {
  id: string;
  urn?: string;
}

export function subTypesOf(entity: EntityV3): string[] {
  const names = aspect(entity, 'subTypes')?.typeNames;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string' && n !== '') : [];
}

export function browsePathOf(entity: EntityV3): BrowseEntry[] {
  const path = aspect(entity, 'browsePathsV2')?.path;
  if (!Array.isArray(path)) return [];
  return path.flatMap((p) => {
    const entry = p as { id?: unknown; urn?: unknown };
    const id = str(entry.id);
    return id ? [{ id, urn: str(entry.urn) }] : [];
  });
}

async function readBrief(urn: string, signal: AbortSignal): Promise<EntityV3 | undefined> {
  const answer = await api<EntityV3>('GET', `${V3}/${enc(entityTypeOf(urn) || 'entity')}/${enc(urn)}?aspects=${BRIEF}`, { accept: [404], signal });
  return answer.status === 404 ? undefined : answer.body;
}

export interface Trail {
  key: string;
  /** The containers, innermost first. */
  chain: string[];
  entities: Map<string, EntityV3 | undefined>;
}

/** The containers above the entity and the entities its browse path names, read once per page. */
export function useTrail(entity: EntityV3): Trail {
  const container = str(aspect(entity, 'container')?.container);
  const linked = browsePathOf(entity).flatMap((e) => (e.urn ? [e.urn] : []));
  const key = `${entity.urn}|${container ?? ''}|${linked.join(' ')}`;
  const [found, setFound] = useState<Trail>({ key: '', chain: [], entities: new Map() });
  useEffect(() => {
    if (!container && linked.length === 0) return;
    const controller = new AbortController();
    const { signal } = controller;
    // Names are a nicety: a container that cannot be read ends the chain, an entry keeps its id.
    const read = (urn: string) => readBrief(urn, signal).catch(() => undefined);
    void (async () => {
      const entities = new Map<string, EntityV3 | undefined>();
      const chain: string[] = [];
      for (let next = container; next && !chain.includes(next) && chain.length < MAX_CONTAINERS; ) {
        chain.push(next);
        const brief = await read(next);
        entities.set(next, brief);
        next = brief ? str(aspect(brief, 'container')?.container) : undefined;
      }
      const rest = [...new Set(linked)].filter((u) => !entities.has(u));
      const briefs = await Promise.all(rest.map(read));
      rest.forEach((u, i) => entities.set(u, briefs[i]));
      if (!signal.aborted) setFound({ key, chain, entities });
    })();
    return () => controller.abort();
  }, [key]);
  return found.key === key ? found : { key, chain: container ? [container] : [], entities: new Map() };
}

/** A link to an entity by its name once read; until then (or when it cannot be read), by `label`. */
function EntityLink({ urn, entities, label = shortUrn(urn) }: { urn: string; entities: Map<string, EntityV3 | undefined>; label?: string }) {
  const known = entities.get(urn);
  return (
    <a href={href('/entity', { urn })} title={urn}>
      <Breakable text={known ? nameOf(known) : label} />
    </a>
  );
}

const entryLabel = (id: string) => (isUrn(id) ? shortUrn(id) : id);

/** The browse path, above the entity's name. */
export function BrowsePath({ entity, trail: { entities } }: { entity: EntityV3; trail: Trail }) {
  const path = browsePathOf(entity);
  if (path.length === 0) return null;
  return (
    <nav class="trail" aria-label="Browse path">
      <ol>
        {path.map((entry, i) => (
          <li key={i}>{entry.urn ? <EntityLink urn={entry.urn} entities={entities} label={entryLabel(entry.id)} /> : entryLabel(entry.id)}</li>
        ))}
      </ol>
    </nav>
  );
}

/** The container chain, outermost first, under the entity's name. */
export function ContainerChain({ trail: { chain, entities } }: { trail: Trail }) {
  if (chain.length === 0) return null;
  return (
    <nav class="trail containers" aria-label="Containers">
      <span class="muted">In </span>
      <ol>
        {[...chain].reverse().map((urn) => (
          <li key={urn}>
            <EntityLink urn={urn} entities={entities} />
          </li>
        ))}
      </ol>
    </nav>
  );
}
