import { useEffect, useState } from 'preact/hooks';
import { Breakable, ErrorMessage, Loading } from '../components/common';
import { href } from '../router';
import { count, loadAllForms, loadCompletion, type Completion, type LoadedForm } from './forms-model';
import './forms.css';

/** Every form of the catalog: its type, prompts, how it is assigned, and how far it is filled in. */
export default function Forms() {
  const [forms, setForms] = useState<LoadedForm[]>();
  const [completions, setCompletions] = useState<Map<string, Completion>>(new Map());
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const controller = new AbortController();
    loadAllForms(controller.signal).then(
      (found) => {
        setForms(found);
        // Counts are a search each: the list shows first, the counts as they come.
        for (const form of found) {
          loadCompletion(form.urn, controller.signal).then(
            (c) => setCompletions((old) => new Map(old).set(form.urn, c)),
            () => undefined,
          );
        }
      },
      (e) => controller.signal.aborted || setError(e),
    );
    return () => controller.abort();
  }, []);

  return (
    <>
      <h1>Forms</h1>
      <p class="muted">
        Compliance forms ask the people responsible for assets to answer questions (prompts) about them; each answer is a structured-property value. Answer the ones
        you are asked under <a href={href('/todo')}>To do</a>.
      </p>
      <ErrorMessage error={error} />
      {!forms && !error && <Loading label="Loading the forms…" />}
      {forms && forms.length === 0 && <p>There are no forms yet. A form is the entity urn:li:form:… with a formInfo aspect (see the forms guide).</p>}
      {forms && forms.length > 0 && (
        <div class="card forms-scroll">
          <table class="forms-table">
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col" class="forms-detail">Type</th>
                <th scope="col" class="forms-detail">Prompts</th>
                <th scope="col" class="forms-detail">Assigned</th>
                <th scope="col">Completion</th>
              </tr>
            </thead>
            <tbody>
              {forms.map((form) => {
                const c = completions.get(form.urn);
                const type = form.info.type === 'VERIFICATION' ? 'Verification' : 'Completion';
                const prompts = form.info.prompts?.length ?? 0;
                const assigned = form.filter !== undefined ? 'by a filter' : 'asset by asset';
                return (
                  <tr key={form.urn}>
                    <th scope="row">
                      <a href={href('/form', { urn: form.urn })}>
                        <Breakable text={form.info.name} />
                      </a>
                      {/* At phone widths the three columns between give way to this line. */}
                      <span class="forms-summary muted">
                        {type} · {count(prompts, 'prompt')} · {assigned}
                      </span>
                    </th>
                    <td class="forms-detail">{type}</td>
                    <td class="forms-detail">{prompts}</td>
                    <td class="forms-detail">{assigned}</td>
                    <td>{c ? <FormProgress completion={c} verification={form.info.type === 'VERIFICATION'} name={form.info.name} /> : <span class="muted">…</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** `completed of assigned` as a bar and as words (the words are what a screen reader reads), `state` after them when given. */
export function CompletionBar({ completed, assigned, label, state, more }: { completed: number; assigned: number; label: string; state?: string; more?: string }) {
  return (
    <span class="completion">
      <progress max={Math.max(assigned, 1)} value={completed} aria-label={label} />
      <span class="completion-text">
        {assigned === 0 ? 'no assets yet' : `${completed} of ${assigned}${state ? ` ${state}` : ''}`}
        {assigned > 0 && more && <span class="muted">, {more}</span>}
      </span>
    </span>
  );
}

/**
 * How far a form is done over its assets: complete of assigned; for a VERIFICATION form, whose
 * last step is verifying, verified of assigned, with the complete ones (verified or awaiting) said beside.
 */
export function FormProgress({ completion, verification, name }: { completion: Completion; verification: boolean; name?: string }) {
  const label = (what: string) => (name ? `${name}: assets ${what}` : `Assets ${what}`);
  return verification ? (
    <CompletionBar completed={completion.verified} assigned={completion.assigned} state="verified" more={`${completion.completed} complete`} label={label('verified')} />
  ) : (
    <CompletionBar completed={completion.completed} assigned={completion.assigned} state="complete" label={label('complete')} />
  );
}
