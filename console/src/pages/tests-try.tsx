import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorMessage } from '../components/common';
import { href } from '../router';
import type { FailedCondition } from './tests-model';

interface Verdict {
  result: 'PASS' | 'FAIL' | 'NOT_SELECTED';
  explanation: FailedCondition[];
}

const VERDICT_TEXT: Record<Verdict['result'], string> = {
  PASS: 'Passes',
  FAIL: 'Fails',
  NOT_SELECTED: 'Not selected: the entity is outside the test\u2019s scope (on.types, on.conditions)',
};

/**
 * Tries the definition as it is in the form (saved or not) on one entity: `evaluateDefinition`.
 * The page hears the outcome: a tried definition was accepted, so earlier refusals of it go.
 */
export function TryDefinition({ json, onOutcome }: { json: string; onOutcome?: (error: unknown) => void }) {
  const [urn, setUrn] = useState('');
  const [tried, setTried] = useState<{ urn: string; verdict: Verdict }>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const run = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setTried(undefined);
    try {
      const target = urn.trim();
      const res = await api<{ value: Verdict }>('POST', '/gms/test?action=evaluateDefinition', { body: { urn: target, definition: json } });
      setTried({ urn: target, verdict: res.body.value });
      onOutcome?.(undefined);
    } catch (e) {
      setError(e);
      onOutcome?.(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="tests-try">
      <h2 id="tests-try">Try on an entity</h2>
      <p class="muted">Evaluates the definition as it is above, saved or not; nothing is written.</p>
      <form onSubmit={run}>
        <label for="test-try-urn">Entity URN</label>
        <div class="row tests-try-form">
          <input
            id="test-try-urn"
            type="text"
            value={urn}
            placeholder="urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)"
            onInput={(e) => setUrn((e.target as HTMLInputElement).value)}
            required
          />
          <button type="submit" disabled={busy || urn.trim() === ''}>
            Try the definition
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      <div role="status" class="tests-verdict">
        {tried && (
          <>
            <p>
              <a href={href('/entity', { urn: tried.urn })}>{tried.urn}</a>:{' '}
              <strong class={tried.verdict.result === 'PASS' ? 'ok' : tried.verdict.result === 'FAIL' ? 'error' : 'muted'}>{VERDICT_TEXT[tried.verdict.result]}</strong>
            </p>
            {tried.verdict.explanation.length > 0 && <Explanation conditions={tried.verdict.explanation} />}
          </>
        )}
      </div>
    </section>
  );
}

/** Why an entity fails: each leaf condition that did not hold, with what the property held. */
export function Explanation({ conditions }: { conditions: FailedCondition[] }) {
  return (
    <div class="tests-scroll">
      <table class="tests-explanation">
        <caption>Failed conditions</caption>
        <thead>
          <tr>
            <th scope="col">Condition</th>
            <th scope="col">Property</th>
            <th scope="col">Operator</th>
            <th scope="col">Expected</th>
            <th scope="col">Found</th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((c, i) => (
            <tr key={i}>
              <td>
                <code>{c.condition}</code>
              </td>
              <td>
                <code>{c.property}</code>
              </td>
              <td>
                {c.operator}
                {c.negated ? ' (held, under a not)' : ''}
              </td>
              <td>{c.values.length === 0 ? '—' : c.values.join(', ')}</td>
              <td>{c.found.length === 0 ? 'nothing' : c.found.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
