import { useEffect, useState } from 'preact/hooks';
import { api, enc, V2 } from '../api';
import { ErrorMessage, Loading } from '../components/common';
import { ConfirmDialog } from '../components/property-dialog';
import { loadProperties, loadTypes, typeName, valueText, type Property, type TypeOption } from '../components/property-model';
import { href, navigate, type Route } from '../router';
import { canWrite, type Session } from '../session';
import { DefinitionForm } from './properties-form';
import './properties.css';

interface Catalog {
  properties: Property[];
  dataTypes: TypeOption[];
  entityTypes: TypeOption[];
}

type Action =
  | { kind: 'soft'; property: Property }
  | { kind: 'restore'; property: Property }
  | { kind: 'hard'; property: Property; count?: number; countError?: unknown };

/** How many entities (of every type, soft-deleted ones too) hold a value of the property: a search filtered on it. */
async function countHolders(property: Property): Promise<number> {
  const filter = { and: [{ criteria: [{ field: `structuredProperties.${property.definition.qualifiedName}`, condition: 'EXISTS' }] }] };
  const { body } = await api<{ totalCount: number }>('POST', '/openapi/v3/entity/scroll?count=1&includeSoftDelete=true', { body: { filter } });
  return body.totalCount;
}

const entities = (n: number) => (n === 1 ? '1 entity holds' : `${n} entities hold`);

/**
 * Structured properties (`#/properties`): every definition with its state; editors create and
 * edit definitions (`?new=1`, `?edit=<urn>`), soft delete, restore and hard delete them.
 */
export default function Properties({ route, session }: { route: Route; session: Session }) {
  const [catalog, setCatalog] = useState<Catalog>();
  const [loadError, setLoadError] = useState<unknown>();
  const [action, setAction] = useState<Action>();
  const [actionError, setActionError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const writer = canWrite(session);
  const editUrn = route.params.get('edit');
  const creating = route.params.get('new') === '1';

  const load = async () => {
    try {
      const [properties, dataTypes, entityTypes] = await Promise.all([loadProperties(true), loadTypes('dataType'), loadTypes('entityType')]);
      setCatalog({ properties, dataTypes, entityTypes });
      setLoadError(undefined);
    } catch (e) {
      setLoadError(e);
    }
  };
  useEffect(() => void load(), []);
  // A form opened anew starts without the last save's message, so a new one is never mistaken for it.
  useEffect(() => {
    if (creating || editUrn) setDone('');
  }, [creating, editUrn]);

  const typeLabel = (urn: string, list: TypeOption[]) => list.find((t) => t.urn === urn)?.displayName ?? typeName(urn);

  const open = (next: Action) => {
    setDone('');
    setActionError(undefined);
    setAction(next);
    if (next.kind === 'hard') {
      // Only into the dialog still open for it (not one opened since).
      const into = (found: Partial<Action>) => setAction((now) => (now === next ? ({ ...next, ...found } as Action) : now));
      countHolders(next.property).then(
        (count) => into({ count }),
        (countError: unknown) => into({ countError }),
      );
    }
  };

  const setRemoved = (property: Property, removed: boolean) =>
    api('POST', `${V2}/structuredProperty/${enc(property.urn)}/status`, { body: { removed } });

  const confirm = async () => {
    if (!action) return;
    const { property } = action;
    const name = property.definition.qualifiedName;
    setBusy(true);
    setActionError(undefined);
    try {
      if (action.kind === 'soft') {
        await setRemoved(property, true);
        setDone(`Soft deleted ${name}.`);
      } else if (action.kind === 'restore') {
        await setRemoved(property, false);
        setDone(`Restored ${name}.`);
      } else {
        // The server hard deletes only soft-deleted properties.
        if (!property.removed) await setRemoved(property, true);
        await api('DELETE', `${V2}/structuredProperty/${enc(property.urn)}`);
        setDone(`Hard deleted ${name}.`);
      }
      setAction(undefined);
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
      await load();
    }
  };

  if (loadError) return <ErrorMessage error={loadError} />;
  if (!catalog) return <Loading label="Loading structured properties…" />;

  const editing = editUrn ? catalog.properties.find((p) => p.urn === editUrn) : undefined;
  const showForm = writer && (creating || editing);

  return (
    <>
      <h1>Structured properties</h1>
      <p class="muted">Typed properties defined once and given values on entities. A property may be used on the entity types its definition names.</p>
      {writer && !showForm && (
        <p>
          <a class="property-new" href={href('/properties', { new: '1' })}>
            New property
          </a>
        </p>
      )}
      {editUrn && !editing && <p class="error" role="alert">There is no property {editUrn}.</p>}
      {showForm && (
        <DefinitionForm
          key={editUrn ?? 'new'}
          property={editing}
          dataTypes={catalog.dataTypes}
          entityTypes={catalog.entityTypes}
          onSaved={async (urn) => {
            // A success clears the refusal of an earlier action still on screen.
            setActionError(undefined);
            await load();
            setDone(`Saved ${urn.replace('urn:li:structuredProperty:', '')}.`);
            navigate('/properties');
          }}
          onCancel={() => navigate('/properties')}
        />
      )}
      {done && (
        <p class="ok" role="status">
          {done}
        </p>
      )}
      {!action && <ErrorMessage error={actionError} />}
      {catalog.properties.length === 0 ? (
        <p>No structured properties yet.</p>
      ) : (
        <table class="property-table">
          <caption class="property-caption">
            {catalog.properties.length === 1 ? '1 property' : `${catalog.properties.length} properties`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Qualified name</th>
              <th scope="col">Display name</th>
              <th scope="col">Value type</th>
              <th scope="col">Cardinality</th>
              <th scope="col">Entity types</th>
              <th scope="col">State</th>
              {writer && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {catalog.properties.map((p) => {
              const d = p.definition;
              return (
                <tr key={p.urn}>
                  <td data-label="Qualified name">
                    <code>{d.qualifiedName}</code>
                  </td>
                  <td data-label="Display name">{d.displayName ?? ''}</td>
                  <td data-label="Value type">
                    {typeLabel(d.valueType, catalog.dataTypes)}
                    {d.allowedValues && d.allowedValues.length > 0 && (
                      <span class="muted"> (one of {d.allowedValues.map((a) => valueText(a.value)).join(', ')})</span>
                    )}
                  </td>
                  <td data-label="Cardinality">{d.cardinality ?? 'SINGLE'}</td>
                  <td data-label="Entity types">{(d.entityTypes ?? []).map((t) => typeLabel(t, catalog.entityTypes)).join(', ')}</td>
                  <td data-label="State">{p.removed ? <span class="property-removed">soft deleted</span> : 'active'}</td>
                  {writer && (
                    <td data-label="Actions">
                      <div class="row">
                        {!p.removed && (
                          <a href={href('/properties', { edit: p.urn })} aria-label={`Edit ${d.qualifiedName}`}>
                            Edit
                          </a>
                        )}
                        {p.removed ? (
                          <button type="button" class="secondary" aria-label={`Restore ${d.qualifiedName}`} onClick={() => open({ kind: 'restore', property: p })}>
                            Restore
                          </button>
                        ) : (
                          <button type="button" class="secondary" aria-label={`Soft delete ${d.qualifiedName}`} onClick={() => open({ kind: 'soft', property: p })}>
                            Soft delete
                          </button>
                        )}
                        <button type="button" class="danger" aria-label={`Hard delete ${d.qualifiedName}`} onClick={() => open({ kind: 'hard', property: p })}>
                          Hard delete
                        </button>
                      </div>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {action && <ActionDialog action={action} busy={busy} error={actionError} onConfirm={() => void confirm()} onCancel={() => setAction(undefined)} />}
    </>
  );
}

function ActionDialog({ action, busy, error, onConfirm, onCancel }: { action: Action; busy: boolean; error: unknown; onConfirm: () => void; onCancel: () => void }) {
  const name = action.property.definition.qualifiedName;
  if (action.kind === 'soft') {
    return (
      <ConfirmDialog title={`Soft delete ${name}?`} confirm="Soft delete" busy={busy} error={error} onConfirm={onConfirm} onCancel={onCancel}>
        <p>
          Its values are hidden from reads and search. New values, changes to its definition and search filters on it are refused. Nothing is lost: restoring it brings
          everything back.
        </p>
      </ConfirmDialog>
    );
  }
  if (action.kind === 'restore') {
    return (
      <ConfirmDialog title={`Restore ${name}?`} confirm="Restore" busy={busy} error={error} onConfirm={onConfirm} onCancel={onCancel}>
        <p>Its values show again in reads and search, and it can again be given values, changed and searched on. Nothing was lost while it was soft deleted.</p>
      </ConfirmDialog>
    );
  }
  const counted = action.count !== undefined;
  return (
    <ConfirmDialog
      title={`Hard delete ${name}?`}
      confirm="Hard delete"
      danger
      busy={busy}
      disabled={!counted && !action.countError}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {counted ? (
        <p class="property-count">
          {entities(action.count!)} a value of {name}.
        </p>
      ) : action.countError ? (
        <>
          <p class="property-count">The number of entities holding a value of {name} could not be counted: the server refused the search.</p>
          <ErrorMessage error={action.countError} />
        </>
      ) : (
        <Loading label="Counting the entities that hold a value…" />
      )}
      <p>
        Hard delete removes the definition and the property's values from every entity, for good: it cannot be undone.
        {action.property.removed ? '' : ' It is soft deleted first, as the server requires.'}
      </p>
    </ConfirmDialog>
  );
}
