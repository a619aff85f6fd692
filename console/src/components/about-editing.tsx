import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { faultyField, InputError } from '../errors';
import { entityTypeOf } from '../pages/entity-info';
import { href } from '../router';
import { canWrite, type Session } from '../session';
import { ErrorMessage, shortUrn } from './common';
import { dropDraft, keepDraft, readDraft } from './drafts';
import { mutate } from './graphql-call';
import { Markdown } from './markdown';
import { findEntities, UrnPicker, type Suggestion } from './urn-picker';
import { useWrite } from './use-write';

/**
 * The entity page's About facts, each editable by editors and admins through the GraphQL
 * mutations DataHub's own UI sends: the description (markdown, with a preview; its draft kept
 * across a sign-in bounce), owners with their ownership type, glossary terms, and the domain.
 */
export interface AboutProps {
  urn: string;
  session: Session;
  onChanged: () => void;
  /** The names the owners, terms and domain record (`Jane Doe`), where known. */
  names: Map<string, string>;
  /** The entity as last read: a new one means a write (here or elsewhere on the page) succeeded. */
  revision: unknown;
}

/** An add form's buttons: add what was picked, or close the editor (and what it said). */
function AddOrDone({ label, disabled, onDone }: { label: string; disabled: boolean; onDone: () => void }) {
  return (
    <div class="row">
      <button type="submit" disabled={disabled}>
        {label}
      </button>
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function Outcome({ id, error, done }: { id: string; error: unknown; done: string }) {
  return (
    <>
      <ErrorMessage error={error} id={id} />
      {done && (
        <p class="ok" role="status">
          {done}
        </p>
      )}
    </>
  );
}

const idOf = (urn: string, what: string) => `${what}-${shortUrn(urn).replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** An "Edit …" toggle and the panel it opens, for writers only. */
function Editable(props: { label: string; open: boolean; setOpen: (open: boolean) => void; writer: boolean; children: ComponentChildren }) {
  if (!props.writer) return null;
  return props.open ? (
    <div class="about-editor">{props.children}</div>
  ) : (
    <button type="button" class="link about-edit" onClick={() => props.setOpen(true)}>
      {props.label}
    </button>
  );
}

const DESCRIPTION = 'description';

export function DescriptionField({ urn, session, onChanged, revision, description, editable }: Omit<AboutProps, 'names'> & { description?: string; editable: boolean }) {
  // Only where the type takes a description (updateDescription refuses the others).
  const writer = canWrite(session) && editable;
  // A draft left by an edit interrupted (a sign-in bounce) reopens the editor with it.
  const [draft, setDraft] = useState<string | undefined>(() => (writer ? readDraft<string>(urn, DESCRIPTION) : undefined));
  const [preview, setPreview] = useState(false);
  const w = useWrite(onChanged, revision);
  const id = idOf(urn, 'description');
  const open = draft !== undefined;
  const edit = (text: string) => {
    setDraft(text);
    // Only a change is a draft: an editor opened and left as it was is not reopened next time.
    if (text === (description ?? '')) dropDraft(urn, DESCRIPTION);
    else keepDraft(urn, DESCRIPTION, text);
  };
  const close = () => {
    w.setError(undefined);
    setDraft(undefined);
    setPreview(false);
    dropDraft(urn, DESCRIPTION);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const ok = await w.run(() => mutate('mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', { input: { resourceUrn: urn, description: draft ?? '' } }), 'Saved the description.');
    if (ok) close();
  };
  return (
    <>
      {description ? <Markdown text={description} class="entity-description" /> : <span class="muted">No description.</span>}{' '}
      <Editable label="Edit description" open={open} setOpen={(o) => o && edit(description ?? '')} writer={writer}>
        <form onSubmit={save}>
          {preview ? (
            <>
              <p class="about-editor-title" id={`${id}-preview`}>
                Preview
              </p>
              <div class="description-preview" role="region" aria-labelledby={`${id}-preview`}>
                {draft ? <Markdown text={draft} /> : <p class="muted">Nothing to preview.</p>}
              </div>
            </>
          ) : (
            <>
              <label for={`${id}-text`}>Description (markdown)</label>
              <textarea id={`${id}-text`} rows={6} value={draft} onInput={(e) => edit((e.target as HTMLTextAreaElement).value)} />
            </>
          )}
          <div class="row">
            <button type="submit" disabled={w.busy}>
              Save description
            </button>
            <button type="button" class="secondary" aria-pressed={preview} onClick={() => setPreview(!preview)}>
              {preview ? 'Back to editing' : 'Preview'}
            </button>
            <button type="button" class="secondary" disabled={w.busy} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Editable>
      <Outcome id={`${id}-error`} error={w.error} done={w.done} />
    </>
  );
}

/** DataHub's ownership types (OwnershipType), as its UI names them. */
const OWNERSHIP_TYPES: Array<[string, string]> = [
  ['TECHNICAL_OWNER', 'Technical owner'],
  ['BUSINESS_OWNER', 'Business owner'],
  ['DATA_STEWARD', 'Data steward'],
  ['DATAOWNER', 'Data owner'],
  ['PRODUCER', 'Producer'],
  ['DEVELOPER', 'Developer'],
  ['DELEGATE', 'Delegate'],
  ['CONSUMER', 'Consumer'],
  ['STAKEHOLDER', 'Stakeholder'],
  ['NONE', 'None'],
];
const typeLabel = (type: string) => OWNERSHIP_TYPES.find(([t]) => t === type)?.[1] ?? type;
/** How many of the catalog's own ownership types are offered (DataHub's instances define a handful). */
const CUSTOM_TYPES = 100;

/** The catalog's own ownership types (`ownershipType` entities), not DataHub's `__system__` ones. */
function useCustomTypes(open: boolean): Suggestion[] {
  const [types, setTypes] = useState<Suggestion[]>([]);
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    findEntities('', ['ownershipType'], controller.signal, CUSTOM_TYPES).then(
      (found) => setTypes(found.filter((t) => !t.urn.startsWith('urn:li:ownershipType:__system__')).sort((a, b) => a.name.localeCompare(b.name))),
      () => undefined, // Without them, DataHub's standard types are still offered.
    );
    return () => controller.abort();
  }, [open]);
  return types;
}

export interface Owner {
  owner: string;
  type?: string;
  typeUrn?: string;
}

export function OwnersField({ urn, session, onChanged, names, revision, owners }: AboutProps & { owners: Owner[] }) {
  const writer = canWrite(session);
  const [open, setOpen] = useState(false);
  const [owner, setOwner] = useState('');
  const [type, setType] = useState('TECHNICAL_OWNER');
  const w = useWrite(onChanged, revision);
  const custom = useCustomTypes(open);
  const id = idOf(urn, 'owners');
  const add = async (event: Event) => {
    event.preventDefault();
    const kind = entityTypeOf(owner.trim());
    if (kind !== 'corpuser' && kind !== 'corpGroup') {
      w.setDone('');
      w.setError(new InputError('owner', 'An owner is a user or a group: pick one from the suggestions (urn:li:corpuser:… or urn:li:corpGroup:…).'));
      return;
    }
    // A type of the catalog's own is named by its URN, with DataHub's CUSTOM as the deprecated type.
    const customType = custom.find((t) => t.urn === type);
    const input = {
      resourceUrn: urn,
      ownerUrn: owner.trim(),
      ownerEntityType: kind === 'corpuser' ? 'CORP_USER' : 'CORP_GROUP',
      ...(customType ? { type: 'CUSTOM', ownershipTypeUrn: customType.urn } : { type }),
    };
    const as = customType ? customType.name : typeLabel(type).toLowerCase();
    if (await w.run(() => mutate('mutation($input: AddOwnerInput!) { addOwner(input: $input) }', { input }), `Added ${shortUrn(owner.trim())} as ${as}.`)) setOwner('');
  };
  const remove = (o: Owner) => {
    const ownershipTypeUrn = o.typeUrn ?? (o.type ? `urn:li:ownershipType:__system__${o.type.toLowerCase()}` : null);
    void w.run(() => mutate('mutation($input: RemoveOwnerInput!) { removeOwner(input: $input) }', { input: { resourceUrn: urn, ownerUrn: o.owner, ownershipTypeUrn } }), `Removed ${shortUrn(o.owner)}.`);
  };
  const invalid = faultyField(w.error) === 'owner';
  return (
    <>
      {owners.length ? (
        <ul class="plain owners">
          {owners.map((o) => {
            const who = names.get(o.owner) ?? shortUrn(o.owner);
            const kind = o.typeUrn ? (names.get(o.typeUrn) ?? shortUrn(o.typeUrn)) : o.type ? typeLabel(o.type) : '';
            return (
              <li key={`${o.owner} ${o.typeUrn ?? o.type}`}>
                <a href={href('/entity', { urn: o.owner })} title={o.owner}>
                  {who}
                </a>
                {kind && <span class="muted"> ({kind})</span>}
                {writer && open && (
                  <button
                    type="button"
                    class="link chip-remove"
                    disabled={w.busy}
                    aria-label={kind ? `Remove owner ${who} (${kind})` : `Remove owner ${who}`}
                    onClick={() => remove(o)}
                  >
                    ×
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <span class="muted">No owners.</span>
      )}{' '}
      <Editable label="Edit owners" open={open} setOpen={setOpen} writer={writer}>
        <form class="about-add" onSubmit={add} noValidate>
          <label for={`${id}-owner`}>Owner (user or group)</label>
          <UrnPicker id={`${id}-owner`} value={owner} onValue={setOwner} types={['corpuser', 'corpGroup']} placeholder="jdoe or urn:li:corpuser:jdoe" invalid={invalid} describedBy={invalid ? `${id}-error` : undefined} />
          <label for={`${id}-type`}>Ownership type</label>
          <select id={`${id}-type`} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
            <optgroup label="DataHub's types">
              {OWNERSHIP_TYPES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </optgroup>
            {custom.length > 0 && (
              <optgroup label="This catalog's types">
                {custom.map((t) => (
                  <option key={t.urn} value={t.urn}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
          <AddOrDone label="Add owner" disabled={w.busy || owner.trim() === ''} onDone={() => (setOpen(false), w.setError(undefined), w.setDone(''))} />
        </form>
      </Editable>
      <Outcome id={`${id}-error`} error={w.error} done={w.done} />
    </>
  );
}

/** Glossary terms or the domain: URNs picked among entities of one type. */
export function TermsField({ urn, session, onChanged, names, revision, terms }: AboutProps & { terms: string[] }) {
  const writer = canWrite(session);
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const w = useWrite(onChanged, revision);
  const id = idOf(urn, 'terms');
  const add = async (event: Event) => {
    event.preventDefault();
    const picked = term.trim();
    if (entityTypeOf(picked) !== 'glossaryTerm') {
      w.setDone('');
      w.setError(new InputError('term', 'Pick a glossary term from the suggestions (urn:li:glossaryTerm:…).'));
      return;
    }
    if (await w.run(() => mutate('mutation($input: AddTermsInput!) { addTerms(input: $input) }', { input: { resourceUrn: urn, termUrns: [picked] } }), `Added the term ${shortUrn(picked)}.`)) setTerm('');
  };
  const invalid = faultyField(w.error) === 'term';
  return (
    <>
      {terms.length ? (
        <ul class="chips" aria-label="Glossary terms">
          {terms.map((t) => (
            <li key={t} class="chip" title={t}>
              <a href={href('/entity', { urn: t })}>{names.get(t) ?? shortUrn(t)}</a>
              {writer && open && (
                <button
                  type="button"
                  class="link chip-remove"
                  disabled={w.busy}
                  aria-label={`Remove term ${names.get(t) ?? shortUrn(t)}`}
                  onClick={() => void w.run(() => mutate('mutation($input: TermAssociationInput!) { removeTerm(input: $input) }', { input: { resourceUrn: urn, termUrn: t } }), `Removed the term ${shortUrn(t)}.`)}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <span class="muted">No glossary terms.</span>
      )}{' '}
      <Editable label="Edit glossary terms" open={open} setOpen={setOpen} writer={writer}>
        <form class="about-add" onSubmit={add} noValidate>
          <label for={`${id}-term`}>Glossary term</label>
          <UrnPicker id={`${id}-term`} value={term} onValue={setTerm} types={['glossaryTerm']} placeholder="a term's name" invalid={invalid} describedBy={invalid ? `${id}-error` : undefined} />
          <AddOrDone label="Add term" disabled={w.busy || term.trim() === ''} onDone={() => (setOpen(false), w.setError(undefined), w.setDone(''))} />
        </form>
      </Editable>
      <Outcome id={`${id}-error`} error={w.error} done={w.done} />
    </>
  );
}

/** Said once the entity is read again, so as to name the domain by its name (domainProperties.name). */
const MOVED = 'moved';

export function DomainField({ urn, session, onChanged, names, revision, domain }: AboutProps & { domain?: string }) {
  const writer = canWrite(session);
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState('');
  const w = useWrite(onChanged, revision);
  const [movedTo, setMovedTo] = useState('');
  const id = idOf(urn, 'domain');
  const set = async (event: Event) => {
    event.preventDefault();
    const domainUrn = picked.trim();
    if (entityTypeOf(domainUrn) !== 'domain') {
      w.setDone('');
      w.setError(new InputError('domain', 'Pick a domain from the suggestions (urn:li:domain:…).'));
      return;
    }
    setMovedTo(domainUrn);
    if (await w.run(() => mutate('mutation($e: String!, $d: String!) { setDomain(entityUrn: $e, domainUrn: $d) }', { e: urn, d: domainUrn }), MOVED)) {
      setPicked('');
      setOpen(false);
    }
  };
  const invalid = faultyField(w.error) === 'domain';
  return (
    <>
      {domain ? (
        <a href={href('/entity', { urn: domain })} title={domain}>
          {names.get(domain) ?? shortUrn(domain)}
        </a>
      ) : (
        <span class="muted">No domain.</span>
      )}{' '}
      <Editable label="Edit domain" open={open} setOpen={setOpen} writer={writer}>
        <form class="about-add" onSubmit={set} noValidate>
          <label for={`${id}-domain`}>Domain</label>
          <UrnPicker id={`${id}-domain`} value={picked} onValue={setPicked} types={['domain']} placeholder="a domain's name" invalid={invalid} describedBy={invalid ? `${id}-error` : undefined} />
          <div class="row">
            <button type="submit" disabled={w.busy || picked.trim() === ''}>
              Set domain
            </button>
            {domain && (
              <button
                type="button"
                class="secondary"
                disabled={w.busy}
                onClick={() => void w.run(() => mutate('mutation($e: String!) { unsetDomain(entityUrn: $e) }', { e: urn }), 'Removed from its domain.').then((ok) => ok && setOpen(false))}
              >
                Unset domain
              </button>
            )}
            <button type="button" class="secondary" onClick={() => (setOpen(false), w.setError(undefined))}>
              Cancel
            </button>
          </div>
        </form>
      </Editable>
      <Outcome id={`${id}-error`} error={w.error} done={w.done !== MOVED ? w.done : domain === movedTo ? `Moved into the domain ${names.get(domain) ?? shortUrn(domain)}.` : ''} />
    </>
  );
}
