import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage, shortUrn } from '../components/common';
import { href, type Route } from '../router';
import type { Session } from '../session';
import './activity.css';

/** One change-log event, as `GET /openapi/v2/events` gives it (the aspect values are not shown here). */
interface ChangeEvent {
  sequence: number;
  urn: string;
  entityType: string;
  aspectName: string;
  changeType: string;
  created: { time: number; actor: string };
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

type State = 'starting' | 'live' | 'paused' | 'retrying';

/**
 * The change log as a live feed: the last changes, then each new one as it is committed (long
 * polling while the page is open and not paused; leaving the page aborts the waiting request).
 */
export default function Activity(_: { route: Route; session: Session }) {
  const [events, setEvents] = useState<ChangeEvent[]>([]);
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState<State>('starting');
  const [error, setError] = useState<unknown>();
  /** The last sequence shown: where the feed continues, across pauses. */
  const cursor = useRef<number>();

  useEffect(() => {
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
            const newest = (await api<EventPage>('GET', `${EVENTS}?latest=${KEEP}`, { signal })).body;
            if (signal.aborted) return;
            cursor.current = newest.nextAfter;
            setEvents(newest.events.reverse());
          }
          setState('live');
          const params = new URLSearchParams({ after: String(cursor.current), limit: String(KEEP), wait: String(WAIT) });
          const page = (await api<EventPage>('GET', `${EVENTS}?${params}`, { signal })).body;
          if (signal.aborted) return;
          cursor.current = page.nextAfter;
          if (page.events.length > 0) setEvents((shown) => [...page.events.reverse(), ...shown].slice(0, KEEP));
          failures = 0;
          setError(undefined);
        } catch (e) {
          if (signal.aborted) return;
          setError(e);
          setState('retrying');
          // Back off (1, 2, 4 … 30 s) before asking again; leaving the page stops the wait.
          failures++;
          await pause(Math.min(30_000, 1000 * 2 ** (failures - 1)), signal);
        }
      }
    })();
    return () => stop.abort();
  }, [paused]);

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
      <p class="muted">Every committed change to the catalog, newest first (the last {KEEP}).</p>
      <ErrorMessage error={error} />
      {events.length === 0 ? (
        state !== 'starting' && <p class="muted">No changes yet.</p>
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
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.sequence}>
                  <td>
                    <time dateTime={new Date(e.created.time).toISOString()}>{localTime(e.created.time)}</time>
                  </td>
                  <td title={e.created.actor}>{e.created.actor.replace(/^urn:li:corpuser:/, '')}</td>
                  <td>
                    <a href={href('/entity', { urn: e.urn })} title={e.urn}>
                      {shortUrn(e.urn)}
                    </a>{' '}
                    <span class="muted">{e.entityType}</span>
                  </td>
                  <td>{e.aspectName}</td>
                  <td>{e.changeType}</td>
                </tr>
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
};

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
