import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, enc, V2 } from '../api';
import { faultyField, InputError } from '../errors';
import { canWrite, type Session } from '../session';
import { ErrorMessage, Loading, shortUrn } from './common';
import { dropDraft, keepDraft, readDraft } from './drafts';
import {
  appliesTo,
  loadProperties,
  pointerSegment,
  propertyLabel,
  toValue,
  typeName,
  valueKind,
  valueText,
  type Assignment,
  type Property,
  type StructuredPropertiesAspect,
} from './property-model';
import './property-editing.css';
import { UrnPicker } from './urn-picker';

/** The unsaved value of the property editor (drafts.ts), under this field. */
const DRAFT = 'structured-property';
interface Draft {
  propertyUrn: string;
  texts: string[];
}

export interface EditingProps {
  urn: string;
  /** The entity type, as in the URN (`dataset`). */
  entityType: string;
  session: Session;
  /** Called after a successful write, so that the page shows the new values. */
  onChanged: () => void;
}

interface Loaded {
  /** Properties an entity of this type may have, not soft deleted. */
  properties: Property[];
  aspect: StructuredPropertiesAspect;
  /** The aspect's version the form was loaded from: `-1` when it does not exist. */
  version: string;
}

async function loadValues(entityType: string, urn: string): Promise<Pick<Loaded, 'aspect' | 'version'>> {
  const res = await api<{ value: StructuredPropertiesAspect; systemMetadata?: { version?: string } }>(
    'GET',
    `${V2}/${entityType}/${enc(urn)}/structuredProperties?systemMetadata=true`,
    { accept: [404] },
  );
  if (res.status === 404) return { aspect: { properties: [] }, version: '-1' };
  return { aspect: { ...res.body.value, properties: res.body.value.properties ?? [] }, version: res.body.systemMetadata?.version ?? '-1' };
}

function currentTexts(aspect: StructuredPropertiesAspect, propertyUrn: string): string[] {
  return aspect.properties.find((a) => a.propertyUrn === propertyUrn)?.values.map(valueText) ?? [];
}

/**
 * Sets, changes and removes an entity's structured-property values (editors and admins). Each
 * write replaces the aspect on condition that it is still the version the form was loaded from
 * (`If-Version-Match`), so that of two stewards editing at once the second is told, not overwritten.
 */
export function PropertyEditing({ urn, entityType, session, onChanged }: EditingProps) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [loadError, setLoadError] = useState<unknown>();
  const [selected, setSelected] = useState('');
  const [texts, setTexts] = useState<string[]>(['']);
  const [error, setError] = useState<unknown>();
  const [conflict, setConflict] = useState<ApiError>();
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const writer = canWrite(session);

  const choose = (propertyUrn: string, aspect: StructuredPropertiesAspect) => {
    setSelected(propertyUrn);
    const draft = readDraft<Draft>(urn, DRAFT);
    const current = draft?.propertyUrn === propertyUrn ? draft.texts : currentTexts(aspect, propertyUrn);
    setTexts(current.length > 0 ? current : ['']);
  };
  // Every change of a value is kept as a draft until saved or removed.
  const edit = (next: string[]) => {
    setTexts(next);
    keepDraft(urn, DRAFT, { propertyUrn: selected, texts: next } satisfies Draft);
  };

  const load = async (keep?: string) => {
    setLoadError(undefined);
    try {
      const [properties, values] = await Promise.all([loadProperties(false), loadValues(entityType, urn)]);
      const usable = properties.filter((p) => appliesTo(p.definition, entityType));
      setLoaded({ properties: usable, ...values });
      const draft = readDraft<Draft>(urn, DRAFT)?.propertyUrn;
      const next = usable.find((p) => p.urn === (keep ?? draft))?.urn ?? usable[0]?.urn ?? '';
      choose(next, values.aspect);
    } catch (e) {
      setLoadError(e);
    }
  };

  useEffect(() => {
    if (writer) void load();
  }, [urn, entityType, writer]);

  if (!writer) return null;
  if (loadError) return <ErrorMessage error={loadError} />;
  if (!loaded) return <Loading label="Loading the property form…" />;

  const property = loaded.properties.find((p) => p.urn === selected);
  const assigned = loaded.aspect.properties.some((a) => a.propertyUrn === selected);

  const write = async (properties: Assignment[], message: string) => {
    setBusy(true);
    setError(undefined);
    setConflict(undefined);
    setDone('');
    try {
      await api('POST', `${V2}/${entityType}/${enc(urn)}/structuredProperties`, {
        body: { ...loaded.aspect, properties },
        headers: { 'If-Version-Match': loaded.version },
      });
      dropDraft(urn, DRAFT);
      const values = await loadValues(entityType, urn);
      setLoaded({ ...loaded, ...values });
      choose(selected, values.aspect);
      setDone(message);
      onChanged();
    } catch (e) {
      if (e instanceof ApiError && e.status === 412) setConflict(e);
      else setError(e);
    } finally {
      setBusy(false);
    }
  };

  const save = (event: Event) => {
    event.preventDefault();
    if (!property) return;
    const kind = valueKind(property.definition.valueType);
    const label = propertyLabel(property.definition);
    // Checked here, so that a value that cannot be right is never sent.
    if (kind === 'number') {
      const notNumber = texts.find((t) => t.trim() !== '' && !Number.isFinite(Number(t)));
      if (notNumber !== undefined) {
        setDone('');
        setError(new InputError(selected, `"${notNumber}" is not a number. ${label} takes a number, such as 42 or 0.5.`));
        return;
      }
    }
    const values = texts.filter((t) => t.trim() !== '').map((t) => toValue(kind, t));
    if (values.length > 1 && property.definition.cardinality !== 'MULTIPLE') {
      setDone('');
      setError(new InputError(selected, `${label} takes one value only.`));
      return;
    }
    if (values.length === 0) return remove();
    const others = loaded.aspect.properties;
    const entry: Assignment = { ...(others.find((a) => a.propertyUrn === selected) ?? {}), propertyUrn: selected, values };
    const properties = assigned ? others.map((a) => (a.propertyUrn === selected ? entry : a)) : [...others, entry];
    void write(properties, `Saved ${propertyLabel(property.definition)}.`);
  };

  const remove = () => {
    if (!property) return;
    void write(
      loaded.aspect.properties.filter((a) => a.propertyUrn !== selected),
      `Removed the values of ${propertyLabel(property.definition)}.`,
    );
  };

  const reload = async () => {
    setError(undefined);
    setDone('');
    dropDraft(urn, DRAFT);
    await load(selected);
    setConflict(undefined);
  };

  const id = `pe-${shortUrn(urn).replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <div class="property-editing">
      <h3>Edit structured properties</h3>
      {loaded.properties.length === 0 ? (
        <p class="muted">No structured property applies to this entity type ({entityType}). Define one under Structured properties.</p>
      ) : (
        <form onSubmit={save} noValidate>
          <label for={`${id}-property`}>Property</label>
          <select
            id={`${id}-property`}
            value={selected}
            onChange={(e) => {
              setDone('');
              setError(undefined);
              dropDraft(urn, DRAFT);
              choose((e.target as HTMLSelectElement).value, loaded.aspect);
            }}
          >
            {loaded.properties.map((p) => (
              <option key={p.urn} value={p.urn}>
                {propertyLabel(p.definition)}
              </option>
            ))}
          </select>
          {property && (
            <ValueInputs
              id={id}
              property={property}
              texts={texts}
              setTexts={edit}
              fault={faultyField(error) === selected ? `${id}-error` : undefined}
            />
          )}
          <div class="row property-actions">
            <button type="submit" disabled={busy || !property}>
              Save
            </button>
            {assigned && (
              <button type="button" class="secondary" disabled={busy} onClick={remove}>
                Remove values
              </button>
            )}
          </div>
        </form>
      )}
      {conflict && (
        <div class="property-conflict">
          <div role="alert">
            <p class="error">Someone else changed this entity's structured properties since you loaded them, so your change was not saved. Reload to see their change, then edit again.</p>
            <p>
              Server: {conflict.status}: {conflict.details}
            </p>
          </div>
          <button type="button" onClick={() => void reload()}>
            Reload
          </button>
        </div>
      )}
      <ErrorMessage error={error} id={`${id}-error`} />
      {done && (
        <p class="ok" role="status">
          {done}
        </p>
      )}
    </div>
  );
}

/** Inputs that follow the definition: a select or checkboxes for allowed values, else typed inputs, several for MULTIPLE. */
export function ValueInputs({
  id,
  property,
  texts,
  setTexts,
  fault,
  context,
}: {
  id: string;
  property: Property;
  texts: string[];
  setTexts: (t: string[]) => void;
  /** The id of the error message when it is about this property: its inputs are marked invalid. */
  fault?: string;
  /**
   * What the value is for, when a page holds several of these (To do: `How many days is it kept?
   * on orders`): said to screen readers before each label, so that no two inputs share a name.
   */
  context?: string;
}) {
  const about = context ? <span class="property-sr">{context}: </span> : null;
  const marks = fault ? { 'aria-invalid': 'true' as const, 'aria-describedby': fault } : {};
  const { definition } = property;
  const kind = valueKind(definition.valueType);
  const multiple = definition.cardinality === 'MULTIPLE';
  const allowed = definition.allowedValues ?? [];
  const hint = definition.description ? <p class="muted">{definition.description}</p> : null;

  if (allowed.length > 0) {
    const options = allowed.map((a) => ({ text: valueText(a.value), label: a.description ? `${valueText(a.value)} — ${a.description}` : valueText(a.value) }));
    // A value set before the allowed values changed is still shown, so that it can be seen and replaced.
    for (const text of texts) if (text !== '' && !options.some((o) => o.text === text)) options.push({ text, label: `${text} (not allowed any more)` });
    if (multiple) {
      return (
        <fieldset class="property-values">
          <legend>
            {about}
            Values
          </legend>
          {hint}
          {options.map((o, i) => (
            <div class="property-check" key={o.text}>
              <input
                type="checkbox"
                id={`${id}-allowed-${i}`}
                {...marks}
                checked={texts.includes(o.text)}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  setTexts(on ? [...texts.filter((t) => t !== ''), o.text] : texts.filter((t) => t !== o.text));
                }}
              />
              <label for={`${id}-allowed-${i}`}>{o.label}</label>
            </div>
          ))}
        </fieldset>
      );
    }
    return (
      <>
        <label for={`${id}-value`}>
          {about}
          Value
        </label>
        {hint}
        <select id={`${id}-value`} {...marks} value={texts[0] ?? ''} onChange={(e) => setTexts([(e.target as HTMLSelectElement).value])}>
          <option value="">(choose a value)</option>
          {options.map((o) => (
            <option key={o.text} value={o.text}>
              {o.label}
            </option>
          ))}
        </select>
      </>
    );
  }

  const shown = texts.length > 0 ? texts : [''];
  // The entity types a URN value may name (typeQualifier.allowedTypes), searched by its picker.
  const allowedTypes = (definition.typeQualifier as { allowedTypes?: string[] } | undefined)?.allowedTypes ?? [];
  const urnTypes = allowedTypes.map(typeName);
  const set = (i: number, text: string) => setTexts(shown.map((t, j) => (j === i ? text : t)));
  const input = (i: number, label: string) => {
    const common = { id: `${id}-value-${i}`, value: shown[i], ...marks, onInput: (e: Event) => set(i, (e.target as HTMLInputElement).value) };
    return (
      <>
        <label for={common.id}>
          {about}
          {label}
        </label>
        {kind === 'rich_text' ? (
          <textarea {...common} />
        ) : kind === 'date' ? (
          <input {...common} type="date" />
        ) : kind === 'number' ? (
          // Text, not type=number: a number input hides what was typed when it does not read as a
          // number (`1e` comes back empty), and the refusal must quote the person's own text.
          <input {...common} type="text" inputMode="decimal" autocomplete="off" />
        ) : kind === 'urn' ? (
          <UrnPicker id={common.id} value={shown[i]} onValue={(v) => set(i, v)} types={urnTypes} placeholder="urn:li:corpuser:jdoe" invalid={!!fault} describedBy={fault} />
        ) : (
          <input {...common} type="text" autocomplete="off" />
        )}
      </>
    );
  };
  const kindText = { number: 'a number', date: 'a date', urn: 'a URN', rich_text: 'text (markdown)', string: 'text' }[kind];
  if (!multiple) {
    return (
      <>
        {input(0, `Value (${kindText})`)}
        {hint}
      </>
    );
  }
  return (
    <fieldset class="property-values">
      <legend>
        {about}
        Values ({kindText}, one or more)
      </legend>
      {hint}
      {shown.map((_, i) => (
        <div class="property-multi" key={i}>
          {input(i, `Value ${i + 1}`)}
          {shown.length > 1 && (
            <button
              type="button"
              class="link"
              onClick={() => setTexts(shown.filter((__, j) => j !== i))}
            >
              {about}
              Remove value {i + 1}
            </button>
          )}
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => setTexts([...shown, ''])}>
        Add a value
      </button>
    </fieldset>
  );
}
