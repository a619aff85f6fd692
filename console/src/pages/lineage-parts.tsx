import type { RefObject } from 'preact';
import type { PagedWalk } from './lineage-walk';

/** What the lineage view's lists share: the "show more" of a long list, the notice of a walk cut short. */

/**
 * The next page of a list. Focus goes to the first entity it brings (the button may be gone once
 * all are shown), so a keyboard user goes on from where the new ones start.
 */
export function ShowMore({ walk, page, list, what }: { walk: PagedWalk; page: number; list: RefObject<HTMLElement>; what: string }) {
  const total = walk.total ?? 0;
  if (total <= walk.results.length) return null;
  const next = Math.min(page, total - walk.results.length);
  const more = () =>
    void walk.more().then((first) =>
      setTimeout(() => list.current?.children[first]?.querySelector<HTMLElement>('a, button, select')?.focus()),
    );
  return (
    <div class="row lineage-more">
      <span class="muted">
        {walk.results.length} of {total} shown
      </span>
      <button type="button" class="secondary" disabled={walk.loading} onClick={more}>
        Show {next} more<span class="lineage-sr"> {what}</span>
      </button>
    </div>
  );
}

/** The server stopped the walk at its time budget: more may lie beyond what is shown. */
export function PartialNotice({ walk }: { walk: PagedWalk }) {
  if (!walk.partial) return null;
  return (
    <p class="lineage-partial" role="note">
      The walk ran out of time: entities further away may be missing.
    </p>
  );
}
