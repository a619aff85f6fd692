import { useEffect, useState } from 'preact/hooks';
import { api, enc, V3 } from '../api';
import { DescriptionField, DomainField, OwnersField, TermsField } from '../components/about-editing';
import { describable, useTypeAspects } from './entity-type';
import { Breakable, ErrorMessage, Loading, shortUrn, when } from '../components/common';
import { JsonView } from '../components/json-view';
import { PropertyEditing } from '../components/entity-editing';
import { Tags } from '../components/tag-editing';
import { href, type Route } from '../router';
import type { Session } from '../session';
import { groupAspects, TIMESERIES_ASPECTS } from './aspect-groups';
import { CustomProperties, Deprecation, Links } from './entity-details';
import { EntityLineage } from './entity-lineage';
import { useNames } from './lineage-walk';
import { Operations, Profiles } from './entity-profiles';
import { SchemaFields } from './entity-schema';
import { EntityHistory, TestResults } from './entity-sections';
import { EntityForms } from './entity-forms';
import { BrowsePath, ContainerChain, subTypesOf, useTrail } from './entity-trail';
import { aspect, aspectNames, descriptionOf, entityTypeOf, nameOf, ownerEntriesOf, platformOf, tagsOf, termsOf, versionOf, type EntityV3 } from './entity-info';
import { loadDefinitions, valueLabel, valueText, type PropertyDef } from './search-properties';
import './entity.css';

/**
 * One entity: where it sits (browse path, subtypes, containers), what it is, its tags, schema,
 * structured properties, metadata-test results, every aspect as JSON (grouped), and the history
 * of an aspect as a diff between two versions.
 */
interface Loaded {
  urn: string;
  entity?: EntityV3;
  notFound?: string;
  error?: unknown;
}

export default function Entity({ route, session }: { route: Route; session: Session }) {
  const urn = route.params.get('urn') ?? '';
  const type = entityTypeOf(urn);
  const [loaded, setLoaded] = useState<Loaded>();
  const [reloads, setReloads] = useState(0);
  const reload = () => setReloads((n) => n + 1);

  useEffect(() => {
    if (!urn) return;
    const controller = new AbortController();
    api<EntityV3 | { message?: string }>('GET', `${V3}/${enc(type || 'entity')}/${enc(urn)}?systemMetadata=true`, { accept: [404], signal: controller.signal }).then(
      (answer) =>
        setLoaded(
          answer.status === 404
            ? { urn, notFound: (answer.body as { message?: string } | undefined)?.message ?? `Entity ${urn} not found` }
            : { urn, entity: answer.body as EntityV3 },
        ),
      (error) => controller.signal.aborted || setLoaded({ urn, error }),
    );
    return () => controller.abort();
  }, [urn, reloads]);

  if (!urn) {
    return (
      <>
        <h1>Entity</h1>
        <p>
          No entity given. <a href={href('/search')}>Search the catalog</a> and open one.
        </p>
      </>
    );
  }
  // While another entity loads, nothing of the previous one is shown.
  const current = loaded?.urn === urn ? loaded : undefined;
  if (!current) return <Loading />;
  if (current.notFound !== undefined) {
    return (
      <>
        <h1>Not found</h1>
        <p role="alert">
          There is no entity <code>{urn}</code> in the catalog.
        </p>
        <p class="muted">{current.notFound}</p>
        <p>
          <a href={href('/search')}>Search the catalog</a>
        </p>
      </>
    );
  }
  if (!current.entity) {
    return (
      <>
        <h1>Entity</h1>
        <ErrorMessage error={current.error} />
      </>
    );
  }
  return <EntityView entity={current.entity} type={type} session={session} route={route} onChanged={reload} />;
}

function EntityView({ entity, type, session, route, onChanged }: { entity: EntityV3; type: string; session: Session; route: Route; onChanged: () => void }) {
  const urn = entity.urn;
  const description = descriptionOf(entity);
  const platform = platformOf(entity);
  const owners = ownerEntriesOf(entity);
  const terms = termsOf(entity);
  const tags = tagsOf(entity);
  const domains = aspect(entity, 'domains')?.domains;
  const domain = Array.isArray(domains) ? domains.find((d): d is string => typeof d === 'string') : undefined;
  const names = useNames([...owners.flatMap((o) => (o.typeUrn ? [o.owner, o.typeUrn] : [o.owner])), ...terms, ...(domain ? [domain] : [])]);
  const editing = { urn, session, onChanged, names, revision: entity };
  // A row or an editor only where the type has the aspect (shown while unknown: the server refuses).
  const aspects = useTypeAspects(type);
  const has = (name: string) => aspects === null || aspects?.has(name) === true;
  const removed = aspect(entity, 'status')?.removed === true;
  const trail = useTrail(entity);
  const subTypes = subTypesOf(entity);
  return (
    <article class="entity">
      <header class="entity-head">
        <BrowsePath entity={entity} trail={trail} />
        <h1>
          <Breakable text={nameOf(entity)} />
        </h1>
        <p class="muted entity-meta">
          <span>{type}</span>
          {subTypes.length > 0 && (
            <span class="subtypes" aria-label="Subtypes">
              {subTypes.map((s) => (
                <span key={s} class="chip subtype">
                  {s}
                </span>
              ))}
            </span>
          )}
          {platform && <span>{shortUrn(platform)}</span>}
          <code class="entity-urn">
            <Breakable text={urn} />
          </code>
        </p>
        <ContainerChain trail={trail} />
        {removed && <p class="error">This entity is soft-deleted (status.removed is true).</p>}
        <Deprecation entity={entity} />
      </header>

      <section class="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        <dl class="facts">
          <dt>Description</dt>
          <dd>
            <DescriptionField {...editing} description={description} editable={describable(type)} />
          </dd>
          {(platform || has('dataPlatformInstance')) && (
            <>
              <dt>Platform</dt>
              <dd>{platform ? <span title={platform}>{shortUrn(platform)}</span> : <span class="muted">—</span>}</dd>
            </>
          )}
          {has('ownership') && (
            <>
              <dt>Owners</dt>
              <dd>
                <OwnersField {...editing} owners={owners} />
              </dd>
            </>
          )}
          {has('glossaryTerms') && (
            <>
              <dt>Glossary terms</dt>
              <dd>
                <TermsField {...editing} terms={terms} />
              </dd>
            </>
          )}
          {has('domains') && (
            <>
              <dt>Domain</dt>
              <dd>
                <DomainField {...editing} domain={domain} />
              </dd>
            </>
          )}
        </dl>
      </section>

      {has('globalTags') && (
        <section class="card" aria-labelledby="tags-title">
          <h2 id="tags-title">Tags</h2>
          <Tags urn={urn} entityType={type} session={session} onChanged={onChanged} tags={tags} />
        </section>
      )}

      <CustomProperties entity={entity} />
      <Links entity={entity} />

      {aspect(entity, 'schemaMetadata') && <SchemaFields entity={entity} />}
      <EntityLineage entity={entity} />
      {/* Timeseries aspects: of DataHub's entity types, only datasets have profiles and operations. */}
      {type === 'dataset' && <Profiles urn={urn} />}
      {type === 'dataset' && <Operations urn={urn} />}

      <section class="card" aria-labelledby="properties-title">
        <h2 id="properties-title">Structured properties</h2>
        <StructuredProperties entity={entity} />
        <PropertyEditing urn={urn} entityType={type} session={session} onChanged={onChanged} />
      </section>

      {aspect(entity, 'forms') && <EntityForms entity={entity} />}

      {aspect(entity, 'testResults') && <TestResults entity={entity} />}

      <EntityHistory entity={entity} type={type} route={route} />

      <Aspects entity={entity} />
    </article>
  );
}

/** Every aspect, grouped, each folded until opened (a large schema is laid out only when asked). */
function Aspects({ entity }: { entity: EntityV3 }) {
  const [full, setFull] = useState(false);
  const groups = groupAspects(aspectNames(entity));
  return (
    <section class="card" aria-labelledby="aspects-title">
      <div class="row aspects-head">
        <h2 id="aspects-title">Aspects</h2>
        <label class="inline">
          <input type="checkbox" checked={full} onChange={(e) => setFull((e.target as HTMLInputElement).checked)} /> Full type names
        </label>
      </div>
      {groups.map((group) => (
        <div key={group.title} class="aspect-group">
          <h3>{group.title}</h3>
          {group.aspects.map((name) => {
            const value = aspect(entity, name) ?? (entity[name] as { value?: unknown }).value;
            // A timeseries aspect is read as its latest point, which has a time, not a version.
            const time = (value as { timestampMillis?: number } | undefined)?.timestampMillis;
            const label = TIMESERIES_ASPECTS.has(name) ? `latest point ${when(time)}` : `version ${versionOf(entity, name)}`;
            return <AspectJson key={name} name={name} label={label} value={value} full={full} />;
          })}
        </div>
      ))}
    </section>
  );
}

function AspectJson({ name, label, value, full }: { name: string; label: string; value: unknown; full: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="aspect" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        {name} <span class="muted">{label}</span>
      </summary>
      {open && <JsonView value={value} full={full} />}
    </details>
  );
}

interface Assignment {
  propertyUrn?: string;
  values?: unknown[];
}

function StructuredProperties({ entity }: { entity: EntityV3 }) {
  const [defs, setDefs] = useState<PropertyDef[]>();
  const [error, setError] = useState<unknown>();
  const list = aspect(entity, 'structuredProperties')?.properties;
  const assignments = (Array.isArray(list) ? list : []) as Assignment[];
  const byUrn = new Map((defs ?? []).map((d) => [d.urn, d]));
  // Definitions are read again when a value names a property not known yet (one just created).
  const missing = assignments.flatMap((a) => (a.propertyUrn && !byUrn.has(a.propertyUrn) ? [a.propertyUrn] : [])).join(' ');
  useEffect(() => {
    if (!missing) return;
    const controller = new AbortController();
    loadDefinitions(controller.signal).then(setDefs, (e) => controller.signal.aborted || setError(e));
    return () => controller.abort();
  }, [missing]);
  if (assignments.length === 0) return <p class="muted">No structured properties.</p>;
  return (
    <>
      <ErrorMessage error={error} />
      <table class="properties">
        <thead>
          <tr>
            <th scope="col">Property</th>
            <th scope="col">Values</th>
          </tr>
        </thead>
        <tbody>
          {assignments.map((a) => {
            const def = a.propertyUrn ? byUrn.get(a.propertyUrn) : undefined;
            const values = (a.values ?? []).map(valueText);
            return (
              <tr key={a.propertyUrn}>
                <th scope="row" title={a.propertyUrn}>
                  {def?.displayName ?? shortUrn(a.propertyUrn ?? '')}
                </th>
                <td>
                  <ul class="plain">
                    {values.map((v) => {
                      const described = def?.allowed?.find((x) => x.value === v)?.description;
                      return (
                        <li key={v}>
                          {def?.kind === 'urn' ? (
                            <a href={href('/entity', { urn: v })} title={v}>
                              {valueLabel(def, v)}
                            </a>
                          ) : (
                            v
                          )}
                          {described && <span class="muted"> — {described}</span>}
                        </li>
                      );
                    })}
                  </ul>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
