import { useEffect, useState } from 'preact/hooks';
import { Breakable, ErrorMessage, Loading, shortUrn } from '../components/common';
import { Markdown } from '../components/markdown';
import { href, type Route } from '../router';
import { entityTypeOf } from './entity-info';
import { CompletionBar, FormProgress } from './forms';
import { actorsText, filterText, loadCompletion, loadForm, loadHolders, stateClass, stateLabel, stateOf, type Completion, type HeldBy, type LoadedForm } from './forms-model';
import { useNames } from './lineage-walk';
import './entity.css';
import './forms.css';

const ASSETS_SHOWN = 200;

interface Loaded {
  urn: string;
  form?: LoadedForm;
  completion?: Completion;
  holders?: { assets: HeldBy[]; more: boolean };
  error?: unknown;
}

/** One form: its definition, how it is assigned, its completion (per prompt too) and its assets' states. */
export default function Form({ route }: { route: Route }) {
  const urn = route.params.get('urn') ?? '';
  const [loaded, setLoaded] = useState<Loaded>();

  useEffect(() => {
    if (!urn) return;
    const controller = new AbortController();
    const { signal } = controller;
    loadForm(urn, signal).then(
      async (form) => {
        if (!form) return setLoaded({ urn });
        const [completion, holders] = await Promise.all([loadCompletion(urn, signal), loadHolders(urn, ASSETS_SHOWN, signal)]);
        setLoaded({ urn, form, completion, holders });
      },
      (error) => signal.aborted || setLoaded({ urn, error }),
    ).catch((error) => signal.aborted || setLoaded({ urn, error }));
    return () => controller.abort();
  }, [urn]);

  if (!urn) {
    return (
      <>
        <h1>Form</h1>
        <p>
          No form given. <a href={href('/forms')}>See the forms</a>.
        </p>
      </>
    );
  }
  const current = loaded?.urn === urn ? loaded : undefined;
  if (!current) return <Loading label="Loading the form…" />;
  if (current.error) {
    return (
      <>
        <h1>Form</h1>
        <ErrorMessage error={current.error} />
      </>
    );
  }
  if (!current.form) {
    return (
      <>
        <h1>Not found</h1>
        <p role="alert">
          There is no form <code>{urn}</code> in the catalog.
        </p>
        <p>
          <a href={href('/forms')}>See the forms</a>
        </p>
      </>
    );
  }
  return <FormView form={current.form} completion={current.completion!} holders={current.holders!} />;
}

function FormView({ form, completion, holders }: { form: LoadedForm; completion: Completion; holders: { assets: HeldBy[]; more: boolean } }) {
  const { info } = form;
  const prompts = info.prompts ?? [];
  const verification = info.type === 'VERIFICATION';
  const names = useNames([...prompts.flatMap((p) => (p.structuredPropertyParams ? [p.structuredPropertyParams.urn] : [])), ...holders.assets.map((a) => a.urn)]);
  const byId = new Map(completion.prompts.map((p) => [p.id, p]));
  return (
    <article class="form-page">
      <header>
        <p class="muted">
          <a href={href('/forms')}>Forms</a>
        </p>
        <h1>
          <Breakable text={info.name} />
        </h1>
        <p class="muted entity-meta">
          <span>{verification ? 'Verification form' : 'Completion form'}</span>{' '}
          <code class="entity-urn">
            <Breakable text={form.urn} />
          </code>
        </p>
      </header>

      <section class="card" aria-labelledby="form-definition-title">
        <h2 id="form-definition-title">Definition</h2>
        {info.description ? <Markdown text={info.description} /> : <p class="muted">No description.</p>}
        <dl class="facts">
          <dt>Type</dt>
          <dd>{verification ? 'Verification: once its required prompts are answered, an asset is verified as a last step' : 'Completion: done when its required prompts are answered'}</dd>
          <dt>Asked of</dt>
          <dd>{actorsText(info).join(', ') || 'nobody'}</dd>
          <dt>Assigned</dt>
          <dd>
            {form.filter !== undefined ? (
              <>
                <p class="form-assignment">By a filter: the assets that match it hold the form, and lose it when they stop matching.</p>
                <ul class="form-filter">
                  {filterText(form.filter).map((branch, i) => (
                    <li key={i}>
                      {i > 0 && <span class="muted">or </span>}
                      {branch}
                    </li>
                  ))}
                </ul>
                <details class="form-filter-json">
                  <summary>The filter as JSON</summary>
                  <pre class="json" tabIndex={0} aria-label="The filter as JSON">
                    {JSON.stringify(form.filter, null, 2)}
                  </pre>
                </details>
              </>
            ) : (
              'Asset by asset (no filter)'
            )}
          </dd>
        </dl>
        <h3>Prompts</h3>
        {prompts.length === 0 ? (
          <p class="muted">No prompts.</p>
        ) : (
          <ol class="form-prompts">
            {prompts.map((p) => {
              const property = p.structuredPropertyParams?.urn;
              return (
                <li key={p.id}>
                  <strong>{p.title}</strong> {p.required ? <span class="chip">required</span> : <span class="chip optional">optional</span>}
                  {p.description && <p class="muted">{p.description}</p>}
                  <p class="muted form-prompt-meta">
                    {property ? (
                      <>
                        Answered with{' '}
                        <a href={href('/entity', { urn: property })} title={property}>
                          {names.get(property) ?? shortUrn(property)}
                        </a>
                      </>
                    ) : (
                      'Not answered with a structured property'
                    )}
                    {p.type === 'FIELDS_STRUCTURED_PROPERTY' ? ', on each schema field' : ', on the asset'}
                    <span> · id {p.id}</span>
                  </p>
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <section class="card" aria-labelledby="form-completion-title">
        <h2 id="form-completion-title">Completion</h2>
        {completion.assigned === 0 ? (
          <p class="muted">No asset holds this form yet.</p>
        ) : (
          <>
            <p>
              <strong>{completion.completed}</strong> of <strong>{completion.assigned}</strong> {completion.assigned === 1 ? 'asset' : 'assets'} complete, <strong>{completion.incomplete}</strong> incomplete
              {verification && (
                <>
                  , <strong>{completion.verified}</strong> verified, <strong>{completion.completed - completion.verified}</strong> awaiting verification
                </>
              )}
              .
            </p>
            <FormProgress completion={completion} verification={verification} />
          </>
        )}
        {completion.assigned > 0 && completion.prompts.length > 0 && (
          <table class="form-prompt-bars">
            <caption class="muted">Assets that answered each prompt</caption>
            <thead>
              <tr>
                <th scope="col">Prompt</th>
                <th scope="col">Answered</th>
              </tr>
            </thead>
            <tbody>
              {prompts.map((p) => {
                const c = byId.get(p.id);
                return (
                  <tr key={p.id}>
                    <th scope="row">{p.title}</th>
                    <td>{c && <CompletionBar completed={c.completed} assigned={c.completed + c.incomplete} label={`${p.title}: assets that answered`} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <section class="card" aria-labelledby="form-assets-title">
        <h2 id="form-assets-title">Assets</h2>
        {holders.assets.length === 0 ? (
          <p class="muted">No asset holds this form.</p>
        ) : (
          <div class="forms-scroll">
            <table class="form-assets">
              <thead>
                <tr>
                  <th scope="col">Asset</th>
                  <th scope="col" class="asset-type">Type</th>
                  <th scope="col">State</th>
                  <th scope="col">Prompts answered</th>
                </tr>
              </thead>
              <tbody>
                {holders.assets.map((a) => {
                  const s = stateOf(a.forms, form.urn);
                  return (
                    <tr key={a.urn}>
                      <th scope="row">
                        <a href={href('/entity', { urn: a.urn })} title={a.urn}>
                          <Breakable text={names.get(a.urn) ?? shortUrn(a.urn)} />
                        </a>
                      </th>
                      <td class="asset-type">{entityTypeOf(a.urn)}</td>
                      <td>{s ? <span class={stateClass(s.state, info)}>{stateLabel(s.state, info)}</span> : '—'}</td>
                      <td>{s ? `${s.done} of ${prompts.length}` : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {holders.more && <p class="muted">The first {ASSETS_SHOWN} assets are shown.</p>}
      </section>
    </article>
  );
}
