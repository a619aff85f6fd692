import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc, V2 } from '../api';
import { ErrorMessage } from '../components/common';
import { faultyField } from '../errors';
import { toValue, valueKind, valueText, type AllowedValue, type Definition, type Property, type TypeOption } from '../components/property-model';

interface AllowedRow {
  value: string;
  description: string;
}

/** yyyyMMddHHmmss of now, in UTC: a definition version higher than any earlier one. */
function nowVersion(): string {
  return new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * Creates a definition or edits one. The server validates every rule (docs/structured-properties.md);
 * its refusal is shown in words (errors.ts) with the field at fault marked; fields the form does
 * not show are kept as they were.
 */
export function DefinitionForm(props: { property?: Property; dataTypes: TypeOption[]; entityTypes: TypeOption[]; onSaved: (urn: string) => void; onCancel: () => void }) {
  const old = props.property?.definition;
  const [qualifiedName, setQualifiedName] = useState(old?.qualifiedName ?? '');
  const [displayName, setDisplayName] = useState(old?.displayName ?? '');
  const [valueType, setValueType] = useState(old?.valueType ?? 'urn:li:dataType:datahub.string');
  const [cardinality, setCardinality] = useState(old?.cardinality ?? 'SINGLE');
  const [entityTypes, setEntityTypes] = useState<string[]>(old?.entityTypes ?? []);
  const [allowed, setAllowed] = useState<AllowedRow[]>((old?.allowedValues ?? []).map((a) => ({ value: valueText(a.value), description: a.description ?? '' })));
  const [description, setDescription] = useState(old?.description ?? '');
  const [version, setVersion] = useState(old?.version ?? '');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const editing = props.property !== undefined;
  const first = useRef<HTMLInputElement>(null);
  // The form opens above the list: bring it into view and put the caret in its first field.
  useEffect(() => {
    first.current?.focus();
    first.current?.scrollIntoView({ block: 'center' });
  }, []);

  // Types the catalog lists, plus any the definition names that it does not (so nothing is dropped silently).
  const typeOptions = [...props.dataTypes];
  if (!typeOptions.some((t) => t.urn === valueType)) typeOptions.push({ urn: valueType, displayName: valueType });
  const entityOptions = [...props.entityTypes];
  for (const t of entityTypes) if (!entityOptions.some((o) => o.urn === t)) entityOptions.push({ urn: t, displayName: t });

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const name = qualifiedName.trim();
    const kind = valueKind(valueType);
    const definition: Definition = { ...(old ?? {}), qualifiedName: name, valueType, cardinality, entityTypes };
    const optional: Array<[keyof Definition, unknown]> = [
      ['displayName', displayName.trim() || undefined],
      ['description', description.trim() || undefined],
      ['version', version.trim() || undefined],
      [
        'allowedValues',
        allowed.length > 0
          ? allowed.map((row): AllowedValue => ({ value: toValue(kind, row.value), ...(row.description.trim() ? { description: row.description.trim() } : {}) }))
          : undefined,
      ],
    ];
    for (const [key, value] of optional) {
      if (value === undefined) delete definition[key];
      else definition[key] = value;
    }
    const urn = `urn:li:structuredProperty:${name}`;
    try {
      await api('POST', `${V2}/structuredProperty/${enc(urn)}/propertyDefinition${editing ? '' : '?createIfNotExists=true'}`, { body: definition });
      props.onSaved(urn);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  // The field a refusal names is marked invalid and tied to the message.
  const fault = faultyField(error);
  const marked = (...fields: string[]) => (fault !== undefined && fields.includes(fault) ? { 'aria-invalid': 'true' as const } : {});
  const described = (field: string[], hint?: string) => [hint, fault !== undefined && field.includes(fault) ? 'pf-error' : undefined].filter(Boolean).join(' ') || undefined;

  const setRow = (i: number, change: Partial<AllowedRow>) => setAllowed(allowed.map((row, j) => (j === i ? { ...row, ...change } : row)));

  return (
    <form class="card property-form" onSubmit={submit} aria-labelledby="property-form-title">
      <h2 id="property-form-title">{editing ? `Edit ${old!.qualifiedName}` : 'New structured property'}</h2>
      <div class="property-form-grid">
        <div>
          <label for="pf-qualified-name">Qualified name</label>
          <input
            id="pf-qualified-name"
            ref={editing ? undefined : first}
            type="text"
            required
            autocomplete="off"
            readOnly={editing}
            {...marked('qualifiedName', 'urn')}
            aria-describedby={described(['qualifiedName', 'urn'], 'pf-qualified-name-hint')}
            value={qualifiedName}
            onInput={(e) => setQualifiedName((e.target as HTMLInputElement).value)}
          />
          <p class="muted" id="pf-qualified-name-hint">
            {editing ? 'A qualified name never changes.' : 'No spaces, e.g. com.example.privacy.retentionTime; the property is urn:li:structuredProperty:<qualified name>.'}
          </p>
        </div>
        <div>
          <label for="pf-display-name">Display name</label>
          <input id="pf-display-name" ref={editing ? first : undefined} type="text" autocomplete="off" value={displayName} onInput={(e) => setDisplayName((e.target as HTMLInputElement).value)} />
        </div>
        <div>
          <label for="pf-value-type">Value type</label>
          <select id="pf-value-type" {...marked('valueType')} aria-describedby={described(['valueType'])} value={valueType} onChange={(e) => setValueType((e.target as HTMLSelectElement).value)}>
            {typeOptions.map((t) => (
              <option key={t.urn} value={t.urn}>
                {t.displayName}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="pf-cardinality">Cardinality</label>
          <select id="pf-cardinality" {...marked('cardinality')} aria-describedby={described(['cardinality'])} value={cardinality} onChange={(e) => setCardinality((e.target as HTMLSelectElement).value as 'SINGLE' | 'MULTIPLE')}>
            <option value="SINGLE">SINGLE (one value)</option>
            <option value="MULTIPLE">MULTIPLE (several values)</option>
          </select>
        </div>
      </div>

      <fieldset class="property-entity-types">
        <legend>Entity types (where it may be used)</legend>
        <div class="property-checks">
          {entityOptions.map((t, i) => (
            <div class="property-check" key={t.urn}>
              <input
                type="checkbox"
                id={`pf-entity-type-${i}`}
                {...marked('entityTypes')}
                aria-describedby={described(['entityTypes'])}
                checked={entityTypes.includes(t.urn)}
                onChange={(e) => setEntityTypes((e.target as HTMLInputElement).checked ? [...entityTypes, t.urn] : entityTypes.filter((x) => x !== t.urn))}
              />
              <label for={`pf-entity-type-${i}`}>{t.displayName}</label>
            </div>
          ))}
        </div>
      </fieldset>

      <fieldset class="property-allowed">
        <legend>Allowed values (none: any value of the type)</legend>
        {allowed.map((row, i) => (
          <div class="property-allowed-row" key={i}>
            <div>
              <label for={`pf-allowed-value-${i}`}>Allowed value {i + 1}</label>
              <input id={`pf-allowed-value-${i}`} {...marked('allowedValues')} aria-describedby={described(['allowedValues'])} type="text" autocomplete="off" value={row.value} onInput={(e) => setRow(i, { value: (e.target as HTMLInputElement).value })} />
            </div>
            <div>
              <label for={`pf-allowed-description-${i}`}>Description of value {i + 1}</label>
              <input id={`pf-allowed-description-${i}`} type="text" autocomplete="off" value={row.description} onInput={(e) => setRow(i, { description: (e.target as HTMLInputElement).value })} />
            </div>
            <button type="button" class="link" onClick={() => setAllowed(allowed.filter((_, j) => j !== i))}>
              Remove allowed value {i + 1}
            </button>
          </div>
        ))}
        <button type="button" class="secondary" onClick={() => setAllowed([...allowed, { value: '', description: '' }])}>
          Add an allowed value
        </button>
      </fieldset>

      <label for="pf-description">Description</label>
      <textarea id="pf-description" class="property-description" value={description} onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)} />

      <label for="pf-version">Version (optional)</label>
      <div class="row">
        <input id="pf-version" {...marked('version', 'valueType', 'cardinality')} type="text" inputMode="numeric" autocomplete="off" aria-describedby={described(['version', 'valueType', 'cardinality'], 'pf-version-hint')} value={version} onInput={(e) => setVersion((e.target as HTMLInputElement).value)} />
        <button type="button" class="secondary" onClick={() => setVersion(nowVersion())}>
          Use the current time
        </button>
      </div>
      <p class="muted" id="pf-version-hint">
        14 digits, yyyyMMddHHmmss. A narrowing change — another value type, MULTIPLE to SINGLE, adding allowed values where there were none, removing an allowed value or an entity type —
        needs a version higher than the current one.
      </p>

      <ErrorMessage error={error} id="pf-error" />
      <div class="row">
        <button type="submit" disabled={busy || qualifiedName.trim() === ''}>
          {editing ? 'Save changes' : 'Create property'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
