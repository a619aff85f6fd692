import { useEffect, useState } from 'preact/hooks';
import { api, enc, V3 } from '../api';
import { actorName, ErrorMessage, Loading, shortUrn, when } from '../components/common';
import { JsonDiff } from '../components/diff';
import { href, navigate, type Route } from '../router';
import { TIMESERIES_ASPECTS } from './aspect-groups';
import { aspect, aspectNames, versionOf, type EntityV3 } from './entity-info';
import type { FailedCondition } from './tests-model';

/** The entity page's larger sections: metadata-test results, aspect history. */

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null) : []);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

interface Evaluation {
  passing: Array<{ test: string }>;
  failing: Array<{ test: string; explanation?: FailedCondition[] }>;
}

/** One failed condition, in words: `rules.and[0]: ownership.owners.owner exists — found: nothing`. */
export function explain(c: FailedCondition): string {
  const expected = c.values.length ? ` ${c.values.map((v) => JSON.stringify(v)).join(', ')}` : '';
  const found = c.found.length ? c.found.map((v) => JSON.stringify(v)).join(', ') : 'nothing';
  return `${c.condition}: ${c.property} ${c.negated ? 'must not be ' : ''}${c.operator}${expected} — found: ${found}`;
}

export function TestResults({ entity }: { entity: EntityV3 }) {
  const results = aspect(entity, 'testResults');
  const passing = list(results?.passing).flatMap((r) => str(r.test) ?? []);
  const failing = list(results?.failing).flatMap((r) => str(r.test) ?? []);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const [evaluation, setEvaluation] = useState<Evaluation>();
  const [error, setError] = useState<unknown>();
  const key = `${passing.join(' ')}|${failing.join(' ')}`;

  useEffect(() => {
    const controller = new AbortController();
    const tests = [...passing, ...failing];
    if (tests.length) {
      api<Array<{ urn: string; testInfo?: { value?: { name?: string } } }>>('POST', `${V3}/test/batchGet`, { body: tests.map((urn) => ({ urn, testInfo: {} })), signal: controller.signal }).then(
        ({ body }) => setNames(new Map(body.flatMap((t) => (t.testInfo?.value?.name ? [[t.urn, t.testInfo.value.name] as [string, string]] : [])))),
        () => undefined, // Names are a nicety: without them, the tests' URNs are shown.
      );
    }
    if (failing.length) {
      setEvaluation(undefined);
      api<{ value: Evaluation }>('POST', '/gms/test?action=evaluate', { body: { urn: entity.urn, testUrns: failing }, signal: controller.signal }).then(
        ({ body }) => setEvaluation(body.value),
        (e) => controller.signal.aborted || setError(e),
      );
    }
    return () => controller.abort();
  }, [entity.urn, key]);

  const name = (test: string) => names.get(test) ?? shortUrn(test);
  return (
    <section class="card" aria-labelledby="tests-title">
      <h2 id="tests-title">Metadata tests</h2>
      <h3>Failing ({failing.length})</h3>
      {failing.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="tests">
          {failing.map((test) => {
            const now = evaluation?.failing.find((r) => r.test === test);
            return (
              <li key={test} class="test-failing">
                <strong>{name(test)}</strong> <code class="muted">{test}</code>
                {!evaluation && !error && <Loading label="Evaluating…" />}
                {now?.explanation && now.explanation.length > 0 && (
                  <>
                    <p class="why">Why it fails:</p>
                    <ul class="explanation">
                      {now.explanation.map((c, i) => (
                        <li key={i}>{explain(c)}</li>
                      ))}
                    </ul>
                  </>
                )}
                {evaluation && !now && <p class="muted">Evaluated now, it no longer fails (the stored result is older).</p>}
              </li>
            );
          })}
        </ul>
      )}
      <ErrorMessage error={error} />
      <h3>Passing ({passing.length})</h3>
      {passing.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="tests">
          {passing.map((test) => (
            <li key={test}>
              <strong>{name(test)}</strong> <code class="muted">{test}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface Version {
  value: unknown;
  systemMetadata?: { version?: string; aspectModified?: { time?: number; actor?: string }; lastObserved?: number };
}

/** How many of the latest versions are listed. */
const LISTED = 10;


/** The versions of one aspect (the URL's `aspect`), and a diff between two of them (`from`, `to`). */
export function EntityHistory({ entity, type, route }: { entity: EntityV3; type: string; route: Route }) {
  // Timeseries points have no versions to compare.
  const names = aspectNames(entity).filter((n) => !TIMESERIES_ASPECTS.has(n));
  const chosen = route.params.get('aspect');
  const name = chosen && names.includes(chosen) ? chosen : (names.find((n) => versionOf(entity, n) > 1) ?? names[0]);
  const latest = name ? versionOf(entity, name) : 0;
  const number = (param: string, fallback: number) => {
    const n = Number(route.params.get(param));
    return Number.isInteger(n) && n >= 1 && n <= latest ? n : fallback;
  };
  const to = number('to', latest);
  const from = number('from', Math.max(1, latest - 1));
  const [versions, setVersions] = useState<{ key: string; found: Map<number, Version | Error> }>({ key: '', found: new Map() });
  const key = `${entity.urn}|${name}|${latest}`;
  const found = versions.key === key ? versions.found : new Map<number, Version | Error>();

  useEffect(() => {
    if (!name) return;
    const wanted = new Set<number>([from, to]);
    for (let v = latest; v >= 1 && v > latest - LISTED; v--) wanted.add(v);
    const missing = [...wanted].filter((v) => !found.has(v));
    if (missing.length === 0) return;
    const controller = new AbortController();
    Promise.all(
      missing.map((v) =>
        api<Version>('GET', `${V3}/${enc(type)}/${enc(entity.urn)}/${enc(name)}?version=${v}&systemMetadata=true`, { signal: controller.signal }).then(
          ({ body }) => [v, body] as const,
          (e: Error) => [v, e] as const,
        ),
      ),
    ).then((answers) => {
      if (controller.signal.aborted) return;
      setVersions((old) => {
        const next = new Map(old.key === key ? old.found : []);
        for (const [v, answer] of answers) next.set(v, answer);
        return { key, found: next };
      });
    });
    return () => controller.abort();
  }, [key, from, to]);

  const set = (changes: Record<string, string | number>) => {
    const params = Object.fromEntries(route.params);
    navigate(href('/entity', { ...params, ...changes }), true);
  };
  const listed = [];
  for (let v = latest; v >= 1 && v > latest - LISTED; v--) listed.push(v);
  const a = found.get(from);
  const b = found.get(to);

  return (
    <section class="card" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {!name ? (
        <p class="muted">No aspects.</p>
      ) : (
        <>
          <div class="row history-controls">
            <div>
              <label for="history-aspect">Aspect</label>
              <select id="history-aspect" value={name} onChange={(e) => set({ aspect: (e.target as HTMLSelectElement).value, from: '', to: '' })}>
                {names.map((n) => (
                  <option key={n} value={n}>
                    {n} ({versionOf(entity, n)} {versionOf(entity, n) === 1 ? 'version' : 'versions'})
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="history-from">From version</label>
              <select id="history-from" value={String(from)} onChange={(e) => set({ aspect: name, from: (e.target as HTMLSelectElement).value, to })}>
                {Array.from({ length: latest }, (_, i) => latest - i).map((v) => (
                  <option key={v} value={String(v)}>
                    {v}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="history-to">To version</label>
              <select id="history-to" value={String(to)} onChange={(e) => set({ aspect: name, from, to: (e.target as HTMLSelectElement).value })}>
                {Array.from({ length: latest }, (_, i) => latest - i).map((v) => (
                  <option key={v} value={String(v)}>
                    {v}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div class="table-wrap">
            <table class="versions">
              <caption class="muted">
                Versions of {name}
                {latest > LISTED ? ` (the latest ${LISTED} of ${latest})` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Written</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {listed.map((v) => {
                  const answer = found.get(v);
                  const meta = answer && !(answer instanceof Error) ? answer.systemMetadata : undefined;
                  return (
                    <tr key={v}>
                      <td>{v}</td>
                      <td>{answer instanceof Error ? <ErrorMessage error={answer} /> : answer ? when(meta?.aspectModified?.time ?? meta?.lastObserved) : '…'}</td>
                      <td>{meta?.aspectModified?.actor ? actorName(meta.aspectModified.actor, 'urnbase') : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {latest < 2 ? (
            <p class="muted">{name} has one version: nothing to compare yet.</p>
          ) : a instanceof Error || b instanceof Error ? (
            <ErrorMessage error={a instanceof Error ? a : b} />
          ) : a && b ? (
            <JsonDiff before={a.value} after={b.value} label={`${name}, version ${from} → version ${to}`} />
          ) : (
            <Loading label="Loading the versions…" />
          )}
        </>
      )}
    </section>
  );
}
