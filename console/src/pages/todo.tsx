import { useEffect, useRef, useState } from 'preact/hooks';
import { api, V3 } from '../api';
import { Breakable, ErrorMessage, Loading, shortUrn } from '../components/common';
import { ValueInputs } from '../components/entity-editing';
import { loadProperties, propertyLabel, toValue, valueKind, valueText, type Property, type StructuredPropertiesAspect } from '../components/property-model';
import { faultyField, InputError } from '../errors';
import { href } from '../router';
import { canWrite, type Session } from '../session';
import { aspect, entityTypeOf, NAME_ASPECTS, recordedNameOf, type EntityV3 } from './entity-info';
import { answerPrompt, count, loadFormInfos, loadToDo, verifyForm, type FormInfo, type FormPrompt, type ToDo } from './forms-model';
import './forms.css';

interface Loaded {
  todo: ToDo[];
  forms: Map<string, FormInfo>;
  properties: Map<string, Property>;
  /** Each asset's name and structured-property values. */
  assets: Map<string, { name: string; values: StructuredPropertiesAspect }>;
}

async function loadAll(signal: AbortSignal): Promise<Loaded> {
  const todo = await loadToDo(signal);
  const assetUrns = [...new Set(todo.map((t) => t.asset))];
  const body: Record<string, Array<Record<string, unknown>>> = {};
  for (const urn of assetUrns) (body[entityTypeOf(urn)] ??= []).push({ urn, structuredProperties: {}, ...Object.fromEntries(NAME_ASPECTS.map((a) => [a, {}])) });
  const [forms, properties, found] = await Promise.all([
    loadFormInfos([...new Set(todo.map((t) => t.form))], signal),
    loadProperties(false, signal),
    assetUrns.length ? api<Record<string, EntityV3[]>>('POST', `${V3}/generic/batchGet`, { body, signal }).then((r) => Object.values(r.body).flat()) : Promise.resolve([]),
  ]);
  const assets = new Map<string, { name: string; values: StructuredPropertiesAspect }>();
  for (const e of found) {
    const values = aspect(e, 'structuredProperties') as StructuredPropertiesAspect | undefined;
    assets.set(e.urn, { name: recordedNameOf(e) ?? shortUrn(e.urn), values: { properties: values?.properties ?? [] } });
  }
  return { todo, forms, properties: new Map(properties.map((p) => [p.urn, p])), assets };
}

/**
 * The signed-in person's forms to fill in or verify: per asset and form, the prompts still
 * unanswered, each answered in place with the property's own editor (the entity page's); an
 * answered prompt moves to the answered ones, and a form whose required prompts are all answered
 * leaves the list, unless it is a VERIFICATION form: that one stays, to be verified, and leaves
 * once verified.
 */
export default function ToDoPage({ session }: { session: Session }) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<unknown>();
  const [reloads, setReloads] = useState(0);
  const [said, setSaid] = useState('');
  const status = useRef<HTMLParagraphElement>(null);
  // Counts the changes read again: after each, focus lost with the item answered or verified goes to the status line.
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (changes > 0 && focusLost()) status.current?.focus();
  }, [changes]);

  useEffect(() => {
    const controller = new AbortController();
    loadAll(controller.signal).then(setLoaded, (e) => controller.signal.aborted || setError(e));
    return () => controller.abort();
  }, [reloads]);

  // After a change: the list is read again (not aborted on leaving: the change is saved, and only its confirmation would be lost).
  const reread = (say: (next: Loaded) => string) =>
    loadAll(new AbortController().signal).then(
      (next) => {
        setSaid(say(next));
        setLoaded(next);
        setChanges((n) => n + 1);
      },
      (e) => setError(e),
    );

  // After an answer: a form gone from the list is complete; one awaiting verification now has its required prompts answered.
  const answered = (item: ToDo, prompt: FormPrompt, assetName: string, formName: string) =>
    reread((next) => {
      const now = next.todo.find((t) => t.asset === item.asset && t.form === item.form);
      if (!now) return `Answered "${prompt.title}" on ${assetName}: ${formName} is complete there.`;
      if (now.awaitingVerification && !item.awaitingVerification) return `Answered "${prompt.title}" on ${assetName}: ${formName} is answered there and awaits your verification.`;
      return `Answered "${prompt.title}" on ${assetName}.`;
    });

  const verified = (assetName: string, formName: string) => reread(() => `Verified ${formName} on ${assetName}.`);

  const writer = canWrite(session);
  const formName = (form: string) => loaded?.forms.get(form)?.name ?? shortUrn(form);
  const nameOf = (asset: string) => loaded?.assets.get(asset)?.name ?? shortUrn(asset);
  const groups = new Map<string, ToDo[]>();
  for (const item of loaded?.todo ?? []) groups.set(item.asset, [...(groups.get(item.asset) ?? []), item]);

  return (
    <>
      <h1>To do</h1>
      <p class="muted">
        The forms you are asked to fill in, and the verification forms you are asked to verify once answered: on assets you own, or where a form names you (or a group of yours) among the people it asks.
      </p>
      {!writer && <p class="muted">Your role ({session.role}) reads only: an editor or an admin answers the prompts and verifies.</p>}
      <p class="ok todo-status" role="status" tabIndex={-1} ref={status}>
        {said}
      </p>
      <ErrorMessage error={error} />
      {!loaded && !error && <Loading label="Loading your forms…" />}
      {loaded && loaded.todo.length === 0 && (
        <p>
          Nothing to do: no form asks you to answer or verify anything about an asset. <a href={href('/forms')}>See all forms</a>.
        </p>
      )}
      {[...groups].sort(([a], [b]) => nameOf(a).localeCompare(nameOf(b))).map(([asset, items]) => {
        const info = loaded!.assets.get(asset);
        const assetName = info?.name ?? shortUrn(asset);
        const headingId = `todo-${safeId(asset)}`;
        return (
          <section key={asset} class="card todo-asset" aria-labelledby={headingId}>
            <h2 id={headingId}>
              <a href={href('/entity', { urn: asset })} title={asset}>
                <Breakable text={assetName} />
              </a>{' '}
              <span class="muted todo-type">{entityTypeOf(asset)}</span>
            </h2>
            {[...items].sort((a, b) => formName(a.form).localeCompare(formName(b.form))).map((item) => {
              const form = loaded!.forms.get(item.form);
              const formName = form?.name ?? shortUrn(item.form);
              const prompts = form?.prompts ?? [];
              const open = prompts.filter((p) => item.incompletePrompts.includes(p.id));
              const done = prompts.filter((p) => !item.incompletePrompts.includes(p.id));
              return (
                <div key={item.form} class="todo-form">
                  <h3>
                    <a href={href('/form', { urn: item.form })}>{formName}</a> <span class="muted todo-count">{done.length} of {prompts.length} answered</span>
                  </h3>
                  <ul class="todo-prompts">
                    {open.map((p) => (
                      <li key={p.id} class="todo-prompt">
                        <PromptAnswer
                          asset={asset}
                          prompt={p}
                          property={p.structuredPropertyParams ? loaded!.properties.get(p.structuredPropertyParams.urn) : undefined}
                          assetName={assetName}
                          writer={writer}
                          onAnswered={() => answered(item, p, assetName, formName)}
                        />
                      </li>
                    ))}
                  </ul>
                  {done.length > 0 && (
                    <>
                      <h4 class="todo-answered-title">Answered</h4>
                      <ul class="todo-answered">
                        {done.map((p) => {
                          const property = p.structuredPropertyParams?.urn;
                          const values = info?.values.properties.find((a) => a.propertyUrn === property)?.values.map(valueText) ?? [];
                          return (
                            <li key={p.id}>
                              <span aria-hidden="true">✓ </span>
                              {p.title} — {values.length ? <strong>{values.join(', ')}</strong> : <span class="muted">no value</span>}
                            </li>
                          );
                        })}
                      </ul>
                    </>
                  )}
                  {item.awaitingVerification && <VerifyStep asset={asset} form={item.form} assetName={assetName} formName={formName} optionalOpen={open.length} writer={writer} onVerified={() => verified(assetName, formName)} />}
                </div>
              );
            })}
          </section>
        );
      })}
      {loaded && loaded.todo.length > 0 && (
        <p>
          <button type="button" class="secondary" onClick={() => (setSaid(''), setReloads((n) => n + 1))}>
            Reload
          </button>
        </p>
      )}
    </>
  );
}

const safeId = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** Whether keyboard focus is nowhere: on the page's body, or on an element gone from the page. */
const focusLost = () => {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
};

/**
 * A button disabled while its request runs loses focus (to the body); once it is enabled again
 * (the request refused, the item still here) it takes focus back, so that keyboard users stay put.
 */
function useFocusBack(button: { current: HTMLButtonElement | null }, busy: boolean, pressed: boolean) {
  useEffect(() => {
    if (!busy && pressed && focusLost()) button.current?.focus();
  }, [busy]);
}

/**
 * The last step of a VERIFICATION form whose required prompts are answered: the person checks the
 * answers above and confirms them (GraphQL verifyForm); a refusal is said in words, beside it.
 */
function VerifyStep(props: { asset: string; form: string; assetName: string; formName: string; optionalOpen: number; writer: boolean; onVerified: () => void }) {
  const { asset, form, assetName, formName, optionalOpen, writer, onVerified } = props;
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [pressed, setPressed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useFocusBack(button, busy, pressed);
  const id = `todo-${safeId(asset)}-${safeId(form)}-verify`;
  const verify = async () => {
    setPressed(true);
    setBusy(true);
    setError(undefined);
    try {
      await verifyForm(asset, form);
      onVerified();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  // One wording for the state, whatever is left; optional prompts still open are said apart.
  const optional = optionalOpen > 0 ? ` ${count(optionalOpen, 'optional prompt')} ${optionalOpen === 1 ? 'is' : 'are'} still open: answering ${optionalOpen === 1 ? 'it' : 'them'} is not needed to verify.` : '';
  return (
    <div class="todo-verify">
      <p id={id}>
        {writer ? (
          <>
            <strong>Answered — awaiting your verification</strong> <span class="muted">Check the answers, then confirm them: verifying is this form's last step.{optional}</span>
          </>
        ) : (
          <>
            <strong>Answered — awaiting verification</strong> <span class="muted">An editor or an admin the form asks verifies it.{optional}</span>
          </>
        )}
      </p>
      {writer && (
        <button type="button" ref={button} disabled={busy} aria-label={`Verify ${formName} on ${assetName}`} aria-describedby={id} onClick={() => void verify()}>
          Verify
        </button>
      )}
      <ErrorMessage error={error} id={`${id}-error`} />
    </div>
  );
}

/** One unanswered prompt, with the editor its property's definition calls for. */
function PromptAnswer(props: { asset: string; assetName: string; prompt: FormPrompt; property?: Property; writer: boolean; onAnswered: () => void }) {
  const { asset, assetName, prompt, property, writer, onAnswered } = props;
  const [texts, setTexts] = useState<string[]>(['']);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [pressed, setPressed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useFocusBack(button, busy, pressed);
  const id = `todo-${safeId(asset)}-${safeId(prompt.id)}`;
  const title = (
    <p class="todo-prompt-title" id={`${id}-title`}>
      <strong>{prompt.title}</strong> {prompt.required ? <span class="chip">required</span> : <span class="chip optional">optional</span>}
      {prompt.description && <span class="muted"> {prompt.description}</span>}
    </p>
  );
  if (prompt.type === 'FIELDS_STRUCTURED_PROPERTY') {
    return (
      <>
        {title}
        <p class="muted">Asked of each schema field: answer it on the schema fields' properties.</p>
      </>
    );
  }
  if (!property) {
    return (
      <>
        {title}
        <p class="muted">Its structured property ({prompt.structuredPropertyParams?.urn ?? 'none'}) does not exist or is soft deleted.</p>
      </>
    );
  }
  if (!writer) {
    return (
      <>
        {title}
        <p class="muted">Not answered yet. The answer is a value of {propertyLabel(property.definition)}.</p>
      </>
    );
  }
  const submit = async (event: Event) => {
    event.preventDefault();
    const kind = valueKind(property.definition.valueType);
    const label = propertyLabel(property.definition);
    const notNumber = kind === 'number' ? texts.find((t) => t.trim() !== '' && !Number.isFinite(Number(t))) : undefined;
    if (notNumber !== undefined) return setError(new InputError(property.urn, `"${notNumber}" is not a number. ${label} takes a number, such as 42 or 0.5.`));
    const values = texts.filter((t) => t.trim() !== '').map((t) => toValue(kind, t));
    if (values.length === 0) return setError(new InputError(property.urn, `Give ${label} a value first.`));
    if (values.length > 1 && property.definition.cardinality !== 'MULTIPLE') return setError(new InputError(property.urn, `${label} takes one value only.`));
    setPressed(true);
    setBusy(true);
    setError(undefined);
    try {
      await answerPrompt(asset, property.urn, values);
      onAnswered();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      {title}
      <ValueInputs
        id={id}
        property={property}
        texts={texts}
        setTexts={setTexts}
        fault={faultyField(error) === property.urn ? `${id}-error` : undefined}
        context={`${prompt.title} on ${assetName}`}
      />
      <div class="row property-actions">
        <button type="submit" ref={button} disabled={busy}>
          Save answer
        </button>
      </div>
      <ErrorMessage error={error} id={`${id}-error`} />
    </form>
  );
}
