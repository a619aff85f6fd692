import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { actorName, Breakable, ErrorMessage, shortUrn } from '../components/common';
import { faultyField } from '../errors';
import { JsonDiff } from '../components/diff';
import { href, navigate, type Route } from '../router';
import type { Session } from '../session';
import { SYSTEM, SYSTEM_TYPES } from './search-query';
import './activity.css';

/** One change-log event, as `GET /openapi/v2/events` gives it: the aspect's value after the change and before it. */
interface ChangeEvent {
  sequence: number;
  urn: string;
  entityType: string;
  aspectName: string;
  changeType: string;
  created: { time: number; actor: string };
  aspect: unknown;
  previousAspectValue: unknown;
}

/** The feed's filters, as the URL has them (`#/activity?entityType=dataset&actor=jdoe&aspect=globalTags`). */
interface Filters {
  entityType: string;
  actor: string;
  aspect: string;
}

const FILTERS: ReadonlyArray<{ key: keyof Filters; label: string; placeholder: string }> = [
  { key: 'entityType', label: 'Entity type', placeholder: 'dataset' },
  { key: 'actor', label: 'Actor', placeholder: 'jdoe or urn:li:corpuser:jdoe' },
  { key: 'aspect', label: 'Aspect', placeholder: 'globalTags' },
];

const USER_PREFIX = 'urn:li:corpuser:';

function filtersOf(params: URLSearchParams): Filters {
  return { entityType: params.get('entityType')?.trim() ?? '', actor: params.get('actor')?.trim() ?? '', aspect: params.get('aspect')?.trim() ?? '' };
}

/**
 * The filters as the change-log query takes them: an actor given by user name becomes its URN. The
 * catalog's own entities (written at its first start) are left out unless shown or asked for by type,
 * so that a newcomer's first rows are their own writes, not the bootstrap's.
 */
function filterQuery(filters: Filters, showSystem: boolean): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.entityType) query.set('entityType', filters.entityType);
  else if (!showSystem) query.set('excludeEntityTypes', SYSTEM_TYPES.join(','));
  if (filters.actor) query.set('actor', filters.actor.startsWith('urn:') ? filters.actor : `${USER_PREFIX}${filters.actor}`);
  if (filters.aspect) query.set('aspect', filters.aspect);
  return query;
}

/** An entity by its name, a dataset with its platform: `snowflake · sales.orders`. */
export function entityName(urn: string): string {
  const dataset = /^urn:li:dataset:\(urn:li:dataPlatform:([^,]+),(.+),([A-Z]+)\)$/.exec(urn);
  return dataset ? `${dataset[1]} · ${dataset[2]}` : shortUrn(urn);
}

interface EventPage {
  events: ChangeEvent[];
  nextAfter: number;
}

const EVENTS = '/openapi/v2/events';
/** The feed keeps this many changes, newest first. */
export const KEEP = 200;
/** How long one long poll waits for a change, in seconds. */
const WAIT = 20;

type State = 'starting' | 'live' | 'paused' | 'retrying' | 'refused';

/**
 * The change log as a live feed: the last changes, then each new one as it is committed (long
 * polling while the page is open and not paused; leaving the page aborts the waiting request).
 * Filtered by entity type, actor and aspect in the server's query; each change opens to a diff of
 * the aspect before and after it.
 */
export default function Activity({ route }: { route: Route; session: Session }) {
  const filters = filtersOf(route.params);
  const showSystem = route.params.get(SYSTEM) === '1';
  const query = filterQuery(filters, showSystem);
  const filterKey = query.toString();
  // The events shown and the filters they were read with: others' are not shown, not even for a moment.
  const [feed, setFeed] = useState<{ filter: string; events: ChangeEvent[] }>({ filter: filterKey, events: [] });
  const events = feed.filter === filterKey ? feed.events : [];
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState<State>('starting');
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  /** The last sequence shown: where the feed continues, across pauses (not across filters). */
  const cursor = useRef<number>();
  const shownFilter = useRef(filterKey);
  if (shownFilter.current !== filterKey) {
    shownFilter.current = filterKey;
    cursor.current = undefined;
  }

  useEffect(() => {
    const setEvents = (update: (shown: ChangeEvent[]) => ChangeEvent[]) =>
      setFeed((current) => ({ filter: filterKey, events: update(current.filter === filterKey ? current.events : []) }));
    if (cursor.current === undefined) {
      setEvents(() => []);
      setError(undefined);
      setState('starting');
    }
    if (paused) {
      setState('paused');
      return;
    }
    const stop = new AbortController();
    const { signal } = stop;
    void (async () => {
      let failures = 0;
      while (!signal.aborted) {
        try {
          if (cursor.current === undefined) {
            // The newest events first, then everything after them as it is committed.
            const newest = (await api<EventPage>('GET', `${EVENTS}?${new URLSearchParams({ latest: String(KEEP), ...Object.fromEntries(query) })}`, { signal })).body;
            if (signal.aborted) return;
            cursor.current = newest.nextAfter;
            setEvents(() => newest.events.reverse());
            setOpen(new Set());
            setError(undefined);
          }
          setState('live');
          const params = new URLSearchParams({ after: String(cursor.current), limit: String(KEEP), wait: String(WAIT), ...Object.fromEntries(query) });
          const page = (await api<EventPage>('GET', `${EVENTS}?${params}`, { signal })).body;
          if (signal.aborted) return;
          cursor.current = page.nextAfter;
          if (page.events.length > 0) setEvents((shown) => [...page.events.reverse(), ...shown].slice(0, KEEP));
          failures = 0;
          setError(undefined);
        } catch (e) {
          if (signal.aborted) return;
          setError(e);
          // A refused filter stays refused: asking again would not change the answer.
          if (e instanceof ApiError && e.status === 400) {
            setState('refused');
            return;
          }
          setState('retrying');
          // Back off (1, 2, 4 … 30 s) before asking again; leaving the page stops the wait.
          failures++;
          await pause(Math.min(30_000, 1000 * 2 ** (failures - 1)), signal);
        }
      }
    })();
    return () => stop.abort();
  }, [paused, filterKey]);

  const toggle = (sequence: number) =>
    setOpen((shown) => {
      const next = new Set(shown);
      if (!next.delete(sequence)) next.add(sequence);
      return next;
    });
  const filtered = Object.values(filters).some((v) => v !== '');

  return (
    <>
      <div class="row activity-head">
        <h1>Activity</h1>
        <button type="button" class="secondary" onClick={() => setPaused(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <span class="muted" role="status">
          {STATE_TEXT[state]}
        </span>
      </div>
      <p class="muted">
        {filtered ? 'The committed changes that match the filters' : showSystem ? 'Every committed change to the catalog' : 'Every committed change to the catalog but its own entities'}, newest
        first (the last {KEEP}).
      </p>
      <FilterForm key={filterKey} filters={filters} showSystem={showSystem} events={events} refused={state === 'refused' ? faultyField(error) : undefined} />
      <ErrorMessage error={error} id="activity-error" />
      {events.length === 0 ? (
        feed.filter === filterKey && state !== 'starting' && state !== 'refused' && <p class="muted">{filtered ? 'No changes match the filters.' : 'No changes yet.'}</p>
      ) : (
        <div class="activity-scroll">
          <table class="activity">
            <caption class="activity-sr">Changes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Entity</th>
                <th scope="col">Aspect</th>
                <th scope="col">Change</th>
                <th scope="col">What changed</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <Fragment key={e.sequence}>
                  <tr>
                    <td>
                      <time dateTime={new Date(e.created.time).toISOString()}>{localTime(e.created.time)}</time>
                    </td>
                    <td title={e.created.actor}>{actorName(e.created.actor, 'urnbase')}</td>
                    <td>
                      <a href={href('/entity', { urn: e.urn })} title={e.urn}>
                        <Breakable text={entityName(e.urn)} />
                      </a>{' '}
                      <span class="muted">{e.entityType}</span>
                    </td>
                    <td>{e.aspectName}</td>
                    <td>{e.changeType}</td>
                    <td>
                      <button
                        type="button"
                        class="secondary activity-toggle"
                        aria-expanded={open.has(e.sequence)}
                        aria-controls={`activity-diff-${e.sequence}`}
                        onClick={() => toggle(e.sequence)}
                      >
                        {open.has(e.sequence) ? 'Hide diff' : 'Show diff'}
                      </button>
                    </td>
                  </tr>
                  {open.has(e.sequence) && (
                    <tr class="activity-diff" id={`activity-diff-${e.sequence}`}>
                      <td colSpan={6}>
                        <JsonDiff before={e.previousAspectValue ?? undefined} after={e.aspect ?? undefined} label={`${e.aspectName} of ${entityName(e.urn)}, before and after`} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

const STATE_TEXT: Record<State, string> = {
  starting: 'Loading…',
  live: 'Live',
  paused: 'Paused',
  retrying: 'Reconnecting…',
  // A refused filter is not the feed failing: the refusal says what to change, next to the field.
  refused: '',
};

/** The filters, applied by going to their URL; suggestions are the values of the changes shown. */
function FilterForm({ filters, showSystem, events, refused }: { filters: Filters; showSystem: boolean; events: readonly ChangeEvent[]; refused: string | undefined }) {
  const [draft, setDraft] = useState<Filters>(filters);
  const seen = (pick: (e: ChangeEvent) => string) => [...new Set(events.map(pick))].sort();
  const suggestions: Record<keyof Filters, string[]> = {
    entityType: seen((e) => e.entityType),
    actor: seen((e) => e.created.actor.replace(USER_PREFIX, '')),
    aspect: seen((e) => e.aspectName),
  };
  const any = Object.values(filters).some((v) => v !== '');
  return (
    <form
      class="activity-filters"
      aria-label="Filter the changes"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(href('/activity', { ...draft, [SYSTEM]: showSystem ? '1' : undefined }));
      }}
    >
      {FILTERS.map(({ key, label, placeholder }) => (
        <div key={key}>
          <label for={`activity-${key}`}>{label}</label>
          <input
            id={`activity-${key}`}
            type="text"
            value={draft[key]}
            placeholder={placeholder}
            list={`activity-${key}-seen`}
            aria-invalid={refused === key || undefined}
            aria-describedby={refused === key ? 'activity-error' : undefined}
            onInput={(e) => setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value.trim() })}
          />
          <datalist id={`activity-${key}-seen`}>
            {suggestions[key].map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        </div>
      ))}
      <div class="row activity-filter-buttons">
        <button type="submit">Filter</button>
        {any && (
          <a href={href('/activity', { [SYSTEM]: showSystem ? '1' : undefined })} class="activity-clear">
            Clear filters
          </a>
        )}
      </div>
      <div class="check activity-system">
        <input
          id="activity-system"
          type="checkbox"
          checked={showSystem}
          aria-describedby="activity-system-help"
          onChange={(e) => navigate(href('/activity', { ...filters, [SYSTEM]: (e.target as HTMLInputElement).checked ? '1' : undefined }))}
        />
        <label for="activity-system">Show system entities</label>
        <span id="activity-system-help" class="muted">
          Data platforms, data types and entity types (an entity type filter shows its own)
        </span>
      </div>
    </form>
  );
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** `2025-05-01 14:03:07`, in the browser's time zone. */
function localTime(time: number): string {
  const d = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
