import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc, V2 } from '../api';
import { ErrorMessage, Loading } from '../components/common';
import { href, navigate, type Route } from '../router';
import { canWrite, type Session } from '../session';
import { DefinitionEditor } from './tests-editor';
import { draftOf, emptyDraft, infoOf, missingFields, REQUIRED_FIELDS, selectsNothing, slug, TEST_PREFIX, type Draft, type TestInfo } from './tests-model';
import { RunOverCatalog } from './tests-run';
import { TryDefinition } from './tests-try';
import './tests.css';

/**
 * Metadata tests: the list (`#/tests`), one test (`#/tests?urn=…`: its definition, edited by
 * editors; trying the unsaved definition on an entity; a run over the catalog) and a new one
 * (`#/tests?new=1`).
 */
export default function Tests({ route, session }: { route: Route; session: Session }) {
  const urn = route.params.get('urn');
  if (urn) return <TestPage key={urn} urn={urn} session={session} />;
  if (route.params.has('new') && canWrite(session)) return <NewTest />;
  return <TestList session={session} deleted={route.params.get('deleted') ?? undefined} />;
}

interface SearchPage {
  scrollId?: string;
  results: Array<{ urn: string; aspects: { testInfo?: { value: TestInfo } } }>;
  totalCount: number;
}

function TestList({ session, deleted }: { session: Session; deleted?: string }) {
  const [rows, setRows] = useState<SearchPage['results']>();
  const [total, setTotal] = useState(0);
  const [scrollId, setScrollId] = useState<string>();
  const [error, setError] = useState<unknown>();

  const load = async (after?: string) => {
    try {
      const params = new URLSearchParams({ count: '100', aspects: 'testInfo' });
      if (after) params.set('scrollId', after);
      const page = (await api<SearchPage>('GET', `${V2}/test?${params}`)).body;
      setRows((shown) => [...(after ? (shown ?? []) : []), ...page.results]);
      setTotal(page.totalCount);
      setScrollId(page.results.length > 0 ? page.scrollId : undefined);
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => void load(), []);

  return (
    <>
      <div class="row tests-head">
        <h1>Metadata tests</h1>
        {canWrite(session) && (
          <a class="tests-button" href={href('/tests', { new: '1' })}>
            New test
          </a>
        )}
      </div>
      <p class="muted">Rules over the catalog's metadata, evaluated on each entity they select, with the reason for every failure.</p>
      <p role="status" class="ok">
        {deleted ? `Deleted the test “${deleted}”.` : ''}
      </p>
      <ErrorMessage error={error} />
      {!rows && !error && <Loading />}
      {rows && rows.length === 0 && <p class="muted">No metadata tests yet.</p>}
      {rows && rows.length > 0 && (
        <div class="tests-scroll">
          <table>
            <caption class="tests-sr">Metadata tests ({total})</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Category</th>
                <th scope="col">Mode</th>
                <th scope="col">Schedule</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ urn, aspects }) => {
                const info = aspects.testInfo?.value;
                return (
                  <tr key={urn}>
                    <td>
                      <a href={href('/tests', { urn })}>{info?.name || urn}</a>
                      {info && selectsNothing(info.definition?.json ?? '') && <SelectsNothing />}
                      <div class="muted tests-urn">{urn}</div>
                    </td>
                    <td>{info?.category ?? ''}</td>
                    <td>{info ? (info.status?.mode ?? 'ACTIVE') : ''}</td>
                    <td>{info ? (info.schedule?.interval === 'NONE' ? 'on demand' : 'daily') : ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {scrollId && rows && rows.length < total && (
        <button type="button" class="secondary" onClick={() => load(scrollId)}>
          Show more tests
        </button>
      )}
    </>
  );
}

/** The server's refusal of a definition (a 400), which the editor shows next to the condition it names. */
function refusalOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  // In words, still led by the path it names (`rules[1].value: …`), which places it in the editor.
  return error.field && /^(rules|on)\b/.test(error.field) ? `${error.field}: ${error.message}` : error.message;
}

function NewTest() {
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [error, setError] = useState<unknown>();
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const id = draft.id.trim() || slug(draft.name);
      if (!id) throw new Error('Give the test a name or an ID.');
      const urn = `${TEST_PREFIX}${id}`;
      await api('POST', `${V2}/test/${enc(urn)}/testInfo?createIfNotExists=true`, { body: infoOf(draft) });
      navigate(href('/tests', { urn }));
    } catch (e) {
      setError(e);
      setRefusal(refusalOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p>
        <a href={href('/tests')}>All metadata tests</a>
      </p>
      <h1>New metadata test</h1>
      <TestForm draft={draft} onChange={setDraft} isNew editable onSave={save} busy={busy} error={error} refusal={refusal} saved={undefined} />
      <TryDefinition
        json={draft.json}
        onOutcome={(e) => {
          // A definition the server just accepted: an earlier refusal of it no longer holds.
          if (!e) setError(undefined);
          setRefusal(refusalOf(e));
        }}
      />
      <p class="muted">Save the test to run it over the catalog.</p>
    </>
  );
}

interface Loaded {
  info: TestInfo;
  version?: string;
}

function TestPage({ urn, session }: { urn: string; session: Session }) {
  const [loaded, setLoaded] = useState<Loaded | null>();
  const [draft, setDraft] = useState<Draft>();
  const [loadError, setLoadError] = useState<unknown>();
  const [saveError, setSaveError] = useState<unknown>();
  const [refusal, setRefusal] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);
  const editable = canWrite(session);

  const load = async () => {
    const res = await api<{ value: TestInfo; systemMetadata?: { version?: string } }>('GET', `${V2}/test/${enc(urn)}/testInfo?systemMetadata=true`, { accept: [404] });
    if (res.status === 404) {
      setLoaded(null);
      return;
    }
    setLoaded({ info: res.body.value, version: res.body.systemMetadata?.version });
    setDraft(draftOf(urn, res.body.value));
  };
  useEffect(() => {
    load().catch(setLoadError);
  }, [urn]);

  const save = async () => {
    if (!draft || !loaded) return;
    setBusy(true);
    setSaveError(undefined);
    setSaved(undefined);
    try {
      const headers: Record<string, string> = loaded.version ? { 'If-Version-Match': loaded.version } : {};
      await api('POST', `${V2}/test/${enc(urn)}/testInfo`, { body: infoOf(draft, loaded.info), headers });
      await load();
      setSaved('Saved.');
      setRefusal(undefined);
    } catch (e) {
      setSaveError(e);
      setRefusal(refusalOf(e));
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <p>
      <a href={href('/tests')}>All metadata tests</a>
    </p>
  );
  if (loadError)
    return (
      <>
        {back}
        <h1>Metadata test</h1>
        <ErrorMessage error={loadError} />
      </>
    );
  if (loaded === undefined || (loaded && !draft)) return <Loading />;
  if (loaded === null)
    return (
      <>
        {back}
        <h1>Metadata test not found</h1>
        <p>There is no test {urn}.</p>
      </>
    );
  const dirty = draft!.json.trim() !== draftOf(urn, loaded.info).json.trim();
  return (
    <>
      {back}
      <h1>{loaded.info.name || urn}</h1>
      <p class="muted tests-urn">{urn}</p>
      {selectsNothing(loaded.info.definition?.json ?? '') && (
        <p class="tests-warning" role="note">
          <SelectsNothing /> Its definition names no entity types (<code>on.types</code>), so it never selects an entity: a run finds nothing to pass or fail.
        </p>
      )}
      <TestForm
        draft={draft!}
        onChange={(d) => {
          setDraft(d);
          setSaved(undefined);
        }}
        editable={editable}
        onSave={save}
        busy={busy}
        error={saveError}
        refusal={refusal}
        saved={saved}
      />
      <TryDefinition
        json={draft!.json}
        onOutcome={(e) => {
          if (!e) setSaveError(undefined);
          setRefusal(refusalOf(e));
        }}
      />
      <RunOverCatalog urn={urn} json={loaded.info.definition?.json ?? ''} canPush={editable} unsaved={dirty} />
      {editable && <DeleteTest urn={urn} name={loaded.info.name || urn} />}
    </>
  );
}

/** The flag of a test whose definition selects no entity (DataHub's demo data has `{}` ones). */
function SelectsNothing() {
  return (
    <span class="chip tests-flag" title="The definition names no entity types: it never matches">
      selects nothing
    </span>
  );
}

interface FormProps {
  draft: Draft;
  onChange: (draft: Draft) => void;
  editable: boolean;
  isNew?: boolean;
  onSave: () => void;
  busy: boolean;
  error: unknown;
  refusal: string | undefined;
  saved: string | undefined;
}

/** The test's fields and definition; read-only for viewers. */
function TestForm({ draft, onChange, editable, isNew, onSave, busy, error, refusal, saved }: FormProps) {
  // The required fields found empty at the last submit: each says so under itself, in words.
  const [missing, setMissing] = useState<ReadonlyArray<keyof Draft>>([]);
  const field =
    (key: keyof Draft) =>
    (e: Event) => {
      onChange({ ...draft, [key]: (e.target as HTMLInputElement).value });
      if (missing.includes(key)) setMissing(missing.filter((k) => k !== key));
    };
  const readOnly = !editable;
  const required = (key: 'name' | 'category') => {
    const spec = REQUIRED_FIELDS.find((f) => f.key === key)!;
    const shown = missing.includes(key);
    return {
      input: { required: true, 'aria-invalid': shown ? ('true' as const) : undefined, 'aria-describedby': shown ? `test-${key}-missing` : undefined },
      label: editable && <span class="tests-required"> (required)</span>,
      message: shown && (
        <p class="error tests-missing" id={`test-${key}-missing`}>
          {spec.label} is required: give the test one, such as “{spec.example}”.
        </p>
      ),
    };
  };
  const name = required('name');
  const category = required('category');
  return (
    <section class="card" aria-labelledby="tests-definition">
      <h2 id="tests-definition">Definition</h2>
      <form
        // The form says what is missing in words, not only in the browser's tooltip.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const empty = missingFields(draft);
          setMissing(empty);
          if (empty.length > 0) {
            document.getElementById(`test-${empty[0]}`)?.focus();
            return;
          }
          onSave();
        }}
      >
        <div class="tests-fields">
          <div>
            <label for="test-name">
              Name{name.label}
            </label>
            <input id="test-name" type="text" value={draft.name} readOnly={readOnly} {...name.input} onInput={field('name')} />
            {name.message}
          </div>
          {isNew && (
            <div>
              <label for="test-id">ID</label>
              <input id="test-id" type="text" value={draft.id} placeholder={slug(draft.name)} aria-describedby="test-id-help" onInput={field('id')} />
              <p class="muted tests-help" id="test-id-help">
                The test is <code>{TEST_PREFIX}{draft.id.trim() || slug(draft.name) || '…'}</code>; empty: made from the name.
              </p>
            </div>
          )}
          <div>
            <label for="test-category">
              Category{category.label}
            </label>
            <input id="test-category" type="text" value={draft.category} readOnly={readOnly} {...category.input} onInput={field('category')} />
            {category.message}
          </div>
          <div>
            <label for="test-mode">Mode</label>
            <select id="test-mode" value={draft.mode} disabled={readOnly} onChange={field('mode')}>
              <option value="ACTIVE">Active</option>
              <option value="INACTIVE">Inactive</option>
            </select>
          </div>
          <div>
            <label for="test-schedule">Schedule</label>
            <select id="test-schedule" value={draft.interval} disabled={readOnly} onChange={field('interval')}>
              <option value="DAILY">Daily, and on changes</option>
              <option value="NONE">On demand only</option>
            </select>
          </div>
        </div>
        <label for="test-description">Description</label>
        <textarea id="test-description" class="tests-description" value={draft.description} readOnly={readOnly} onInput={field('description')} />
        <DefinitionEditor json={draft.json} onChange={(json) => onChange({ ...draft, json })} readOnly={readOnly} refusal={refusal} />
        <ErrorMessage error={error} />
        {editable && (
          <div class="row">
            <button type="submit" disabled={busy}>
              {isNew ? 'Create test' : 'Save test'}
            </button>
            <span role="status" class="ok">
              {saved ?? ''}
            </span>
          </div>
        )}
      </form>
    </section>
  );
}


/**
 * Deleting a test, after a confirmation naming it: the entity API's delete (DataHub's clients
 * delete a test so), one write through the write path. Entities keep its results until they are
 * evaluated again, which drops them.
 */
function DeleteTest({ urn, name }: { urn: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api('DELETE', `${V2}/test/${enc(urn)}`);
      navigate(href('/tests', { deleted: name }));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="tests-delete">
      <h2 id="tests-delete">Delete the test</h2>
      {!confirming ? (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete this test…
        </button>
      ) : (
        <div role="group" aria-labelledby="tests-delete-question">
          <p id="tests-delete-question">
            Delete the test <strong>{name}</strong> (<code class="tests-urn">{urn}</code>)? It stops running at once; the entities keep its results until they
            are next evaluated, which drops them. This cannot be undone.
          </p>
          <div class="row">
            <button type="button" class="danger" disabled={busy} onClick={remove}>
              Delete “{name}”
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
