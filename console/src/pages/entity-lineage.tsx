import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Breakable, ErrorMessage, Loading } from '../components/common';
import { href } from '../router';
import { aspect, entityTypeOf, nameOf, type EntityV3 } from './entity-info';
import { ColumnLineage } from './lineage-columns';
import { describeUrn, LINEAGE_TYPES, type DegreeBucket, type Direction, type NodeLabel } from './lineage-model';
import { PartialNotice, ShowMore } from './lineage-parts';
import { useFootprint, useNames, usePagedWalk } from './lineage-walk';
import './lineage.css';

/**
 * The entity's lineage: upstream on the left, downstream on the right, the entity between. One hop
 * each way is read at first; each node opens its own next hop (a one-hop walk from it, the same
 * way), so a graph of thousands is read only as far as the steward goes. Nested lists with
 * disclosure buttons: every control is a button, a link or a select, reached by Tab.
 */

/** Nodes per page of a hop. */
export const HOP_PAGE = 20;

const WAYS: Record<Direction, { title: string; word: string }> = {
  UPSTREAM: { title: 'Upstream', word: 'upstream' },
  DOWNSTREAM: { title: 'Downstream', word: 'downstream' },
};

export function EntityLineage({ entity }: { entity: EntityV3 }) {
  const urn = entity.urn;
  const type = entityTypeOf(urn);
  const [columns, setColumns] = useState(false);
  if (!LINEAGE_TYPES.has(type)) return null;
  const label = describeUrn(urn);
  const name = nameOf(entity);
  const schema = aspect(entity, 'schemaMetadata');
  return (
    <section class="card lineage" aria-labelledby="lineage-title">
      <h2 id="lineage-title">Lineage</h2>
      <div class="lineage-graph">
        <Side root={urn} name={name} direction="UPSTREAM" />
        <span class="lineage-arrow" aria-hidden="true">
          →
        </span>
        {/* The entity, and its columns when asked, stay in view while a long graph scrolls by. */}
        <div class="lineage-middle">
          <div class="lineage-root">
            <p class="lineage-root-title">This {label.kind.toLowerCase()}</p>
            <NodeText label={label} name={name} />
            {type === 'dataset' && (
              <button type="button" class="secondary node-columns" aria-expanded={columns} onClick={() => setColumns(!columns)}>
                Columns<span class="lineage-sr"> of {name}</span>
              </button>
            )}
          </div>
          {columns && (
            <div class="lineage-root-columns">
              <ColumnLineage dataset={urn} name={name} schema={schema} />
            </div>
          )}
        </div>
        <span class="lineage-arrow" aria-hidden="true">
          →
        </span>
        <Side root={urn} name={name} direction="DOWNSTREAM" />
      </div>
    </section>
  );
}

const FOOTPRINT: Array<[DegreeBucket, string]> = [
  ['1', '1 hop'],
  ['2', '2 hops'],
  ['3+', '3 or more'],
];

/** One way from the entity: its first hop, and how many lie at each distance. */
function Side({ root, name, direction }: { root: string; name: string; direction: Direction }) {
  const way = WAYS[direction];
  const footprint = useFootprint(root, direction);
  // Distances with nobody at them are left out; nothing at all is said by the hop itself.
  const counts = FOOTPRINT.flatMap(([bucket, words]) => (footprint.degrees?.[bucket] ? [`${footprint.degrees[bucket]} at ${words}`] : []));
  return (
    <div class={`lineage-side lineage-${way.word}`}>
      <h3>{way.title}</h3>
      {counts.length > 0 && (
        <p class="muted lineage-footprint">
          {footprint.partial ? 'At least ' : ''}
          {counts.join(' · ')}
        </p>
      )}
      <Hop from={root} name={name} direction={direction} ancestors={[root]} />
    </div>
  );
}

/** A node's next hop: a page of the entities one hop from it, each a node that opens its own. */
function Hop({ from, name, direction, ancestors, onEmpty }: { from: string; name: string; direction: Direction; ancestors: string[]; onEmpty?: () => void }) {
  const walk = usePagedWalk(from, direction, HOP_PAGE, 1);
  const empty = walk.total === 0;
  useEffect(() => {
    if (empty) onEmpty?.();
  }, [empty]);
  const names = useNames(walk.results.map((r) => r.entity));
  const list = useRef<HTMLUListElement>(null);
  const way = WAYS[direction];
  if (walk.total === undefined) return walk.error ? <ErrorMessage error={walk.error} /> : <Loading />;
  return (
    <>
      {walk.results.length === 0 ? (
        // Under a node, its row says so (a line per leaf would double the graph's height).
        !onEmpty && (
          <p class="muted lineage-none">
            Nothing {way.word} of <Breakable text={name} />.
          </p>
        )
      ) : (
        <ul class="lineage-hop" aria-label={`${way.title} of ${name}`} ref={list}>
          {walk.results.map((r) => (
            <Node key={r.entity} urn={r.entity} recorded={names.get(r.entity)} direction={direction} ancestors={ancestors} />
          ))}
        </ul>
      )}
      <ErrorMessage error={walk.error} />
      <ShowMore walk={walk} page={HOP_PAGE} list={list} what={`${way.word} of ${name}`} />
      <PartialNotice walk={walk} />
    </>
  );
}

/**
 * The name, and under it the kind, the platform and where it sits; the URN's own name too when the
 * recorded one differs (`customers` is `shop.sales.customers`), so two tables of one name differ.
 */
function NodeText({ label, name, urn, end }: { label: NodeLabel; name: string; urn?: string; end?: string }) {
  const qualified = name !== label.name ? label.name : undefined;
  return (
    <div class="node-text">
      {urn ? (
        <a class="node-name" href={href('/entity', { urn })} title={urn}>
          <Breakable text={name} />
        </a>
      ) : (
        <strong class="node-name">
          <Breakable text={name} />
        </strong>
      )}
      <span class="node-meta">
        <Breakable text={[label.kind, label.platform, qualified, label.context].filter(Boolean).join(' · ')} />
        {end && <span class="node-end"> · {end}</span>}
      </span>
    </div>
  );
}

function Node({ urn, recorded, direction, ancestors }: { urn: string; recorded?: string; direction: Direction; ancestors: string[] }) {
  const label = describeUrn(urn);
  const name = recorded ?? label.name;
  const way = WAYS[direction];
  const [open, setOpen] = useState(false);
  // Once opened, the next hop stays mounted (hidden when closed): closing and opening again reads nothing.
  const [opened, setOpened] = useState(false);
  const [columns, setColumns] = useState(false);
  const [leaf, setLeaf] = useState(false);
  const hopId = useId();
  // A cycle: the entity is already on the way from the page's entity to here.
  const cycle = ancestors.includes(urn);
  const toggle = () => {
    setOpen(!open);
    setOpened(true);
  };
  return (
    <li class={`lineage-node node-${label.entityType}`}>
      <div class="node-row">
        {cycle ? (
          <span class="node-cycle" title="Already on the path: a cycle">
            ↻<span class="lineage-sr"> (a cycle: already on the path)</span>
          </span>
        ) : (
          <button type="button" class="node-toggle" aria-expanded={open} aria-controls={opened ? hopId : undefined} title={`${way.title} of ${name}`} onClick={toggle}>
            <span aria-hidden="true">{open ? (leaf ? '–' : '▾') : '▸'}</span>
            <span class="lineage-sr">
              {way.title} of {name}
            </span>
          </button>
        )}
        <NodeText label={label} name={name} urn={urn} end={open && leaf ? 'nothing further' : undefined} />
        {label.entityType === 'dataset' && (
          <button type="button" class="secondary node-columns" aria-expanded={columns} onClick={() => setColumns(!columns)}>
            Columns<span class="lineage-sr"> of {name}</span>
          </button>
        )}
      </div>
      {columns && <ColumnLineage dataset={urn} name={name} />}
      {opened && (
        <div id={hopId} class="lineage-next" hidden={!open}>
          <Hop from={urn} name={name} direction={direction} ancestors={[...ancestors, urn]} onEmpty={() => setLeaf(true)} />
        </div>
      )}
    </li>
  );
}
