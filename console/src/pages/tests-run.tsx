import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage } from '../components/common';
import { href } from '../router';
import { scopeTypes, type TestResults } from './tests-model';

/** Entities per search page, and per batchEvaluate. */
export const RUN_PAGE = 100;
/** Failing entities listed after a run. */
const LIST_FAILING = 20;

interface Progress {
  total: number;
  evaluated: number;
  passing: number;
  failing: number;
  failingUrns: string[];
  done: boolean;
  stopped: boolean;
  pushed: boolean;
}

interface ScrollPage {
  scrollId?: string;
  results: Array<{ urn: string }>;
  totalCount: number;
}

/**
 * Runs a saved test over the catalog from the browser: pages through the entities of its types
 * with the search API and evaluates each page (`batchEvaluate`), counting passing and failing;
 * entities its `on.conditions` leave out get no result. Editors may push the results.
 */
export function RunOverCatalog({ urn, json, canPush, unsaved }: { urn: string; json: string; canPush: boolean; unsaved: boolean }) {
  const types = scopeTypes(json);
  const [push, setPush] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const [error, setError] = useState<unknown>();
  const running = useRef<AbortController>();
  const alive = useRef(true);
  // Leaving the page stops the run.
  useEffect(
    () => () => {
      alive.current = false;
      running.current?.abort();
    },
    [],
  );

  const run = async () => {
    const stop = new AbortController();
    running.current = stop;
    const { signal } = stop;
    setError(undefined);
    const state: Progress = { total: 0, evaluated: 0, passing: 0, failing: 0, failingUrns: [], done: false, stopped: false, pushed: push };
    setProgress({ ...state });
    try {
      let scrollId: string | undefined;
      for (;;) {
        const params = new URLSearchParams({ count: String(RUN_PAGE) });
        if (scrollId) params.set('scrollId', scrollId);
        const page = (await api<ScrollPage>('POST', `/openapi/v2/entity/scroll?${params}`, { body: { entities: types }, signal })).body;
        state.total = page.totalCount;
        const urns = page.results.map((r) => r.urn);
        if (urns.length > 0) {
          const answer = await api<{ value: { results: Record<string, TestResults> } }>('POST', '/gms/test?action=batchEvaluate', {
            body: { urns, testUrns: [urn], push },
            signal,
          });
          for (const entity of urns) {
            const results = answer.body.value.results[entity];
            if (results?.passing.some((r) => r.test === urn)) state.passing++;
            else if (results?.failing.some((r) => r.test === urn)) {
              state.failing++;
              if (state.failingUrns.length < LIST_FAILING) state.failingUrns.push(entity);
            }
          }
          state.evaluated += urns.length;
        }
        if (!alive.current) return;
        setProgress({ ...state, failingUrns: [...state.failingUrns] });
        if (urns.length < RUN_PAGE || !page.scrollId) break;
        scrollId = page.scrollId;
      }
      state.done = true;
    } catch (e) {
      if (signal.aborted) state.stopped = true;
      else setError(e);
    } finally {
      if (running.current === stop) running.current = undefined;
    }
    if (!alive.current) return;
    setProgress({ ...state, failingUrns: [...state.failingUrns] });
  };

  const isRunning = progress !== undefined && !progress.done && !progress.stopped && !error;
  return (
    <section class="card" aria-labelledby="tests-run">
      <h2 id="tests-run">Run over the catalog</h2>
      {types.length === 0 ? (
        <p class="muted">The saved definition selects no entity type.</p>
      ) : (
        <>
          <p>
            Evaluates the saved test on every {types.join(', ')} entity, {RUN_PAGE} at a time.
            {unsaved && ' Unsaved changes to the definition are not used: save first.'}
          </p>
          <div class="row">
            {canPush && (
              <label class="tests-inline">
                <input type="checkbox" checked={push} disabled={isRunning} onChange={(e) => setPush((e.target as HTMLInputElement).checked)} /> Push the results to the
                entities and run the test&rsquo;s actions
              </label>
            )}
            {isRunning ? (
              <button type="button" class="danger" onClick={() => running.current?.abort()}>
                Stop the run
              </button>
            ) : (
              <button type="button" onClick={run}>
                Run over the catalog
              </button>
            )}
          </div>
        </>
      )}
      <ErrorMessage error={error} />
      {progress && <RunProgress progress={progress} running={isRunning} />}
    </section>
  );
}

function RunProgress({ progress: p, running }: { progress: Progress; running: boolean }) {
  const notSelected = p.evaluated - p.passing - p.failing;
  const summary = `${p.passing} passing, ${p.failing} failing, ${notSelected} not selected`;
  return (
    <div class="tests-progress">
      <label for="tests-run-progress">Entities evaluated</label>
      <progress id="tests-run-progress" max={Math.max(p.total, 1)} value={p.evaluated} />
      <p role="status">
        {running && `Running: ${p.evaluated} of ${p.total} entities evaluated — ${summary}.`}
        {p.done && `Done: ${p.evaluated} entities evaluated — ${summary}${p.pushed ? '; results pushed' : ''}.`}
        {p.stopped && `Stopped after ${p.evaluated} of ${p.total} entities — ${summary}.`}
      </p>
      {!running && (
        <dl class="tests-counts">
          <div>
            <dt>Passing</dt>
            <dd class="ok">{p.passing}</dd>
          </div>
          <div>
            <dt>Failing</dt>
            <dd class="error">{p.failing}</dd>
          </div>
          <div>
            <dt>Not selected</dt>
            <dd>{notSelected}</dd>
          </div>
        </dl>
      )}
      {!running && p.failingUrns.length > 0 && (
        <>
          <h3>Failing entities{p.failing > p.failingUrns.length ? ` (the first ${p.failingUrns.length})` : ''}</h3>
          <ul class="tests-failing">
            {p.failingUrns.map((u) => (
              <li key={u}>
                <a href={href('/entity', { urn: u })}>{u}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

