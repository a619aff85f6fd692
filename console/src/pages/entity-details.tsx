import { aspect, type EntityV3 } from './entity-info';

/**
 * Common aspects DataHub's entity types share, rendered for reading: deprecation, custom
 * properties and documentation links (`institutionalMemory`). Lineage has its own view
 * (entity-lineage.tsx).
 */

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null) : []);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const day = (time: unknown) => (typeof time === 'number' && Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : undefined);

/** The aspects whose `customProperties` describe the entity itself. */
const PROPERTIES_ASPECTS = /^(?!editable)[a-zA-Z]*(Properties|Info)$/;

export function customPropertiesOf(entity: EntityV3): Array<[string, string]> {
  const found = new Map<string, string>();
  for (const name of Object.keys(entity).sort()) {
    if (!PROPERTIES_ASPECTS.test(name)) continue;
    const props = aspect(entity, name)?.customProperties;
    if (typeof props !== 'object' || props === null || Array.isArray(props)) continue;
    for (const [key, value] of Object.entries(props)) if (!found.has(key)) found.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return [...found].sort(([a], [b]) => a.localeCompare(b));
}

/** A banner when `deprecation.deprecated` is true, with the note and the decommission day. */
export function Deprecation({ entity }: { entity: EntityV3 }) {
  const value = aspect(entity, 'deprecation');
  if (value?.deprecated !== true) return null;
  const note = str(value.note);
  const decommission = day(value.decommissionTime);
  return (
    <p class="deprecated" role="note">
      <strong>Deprecated</strong>
      {decommission && <> — to be decommissioned on {decommission}</>}
      {note && <>: {note}</>}
    </p>
  );
}

export function CustomProperties({ entity }: { entity: EntityV3 }) {
  const props = customPropertiesOf(entity);
  if (props.length === 0) return null;
  return (
    <section class="card" aria-labelledby="custom-title">
      <h2 id="custom-title">Custom properties</h2>
      <div class="table-wrap">
        <table class="custom-properties">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {props.map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Documentation links; only http(s) addresses become links (never `javascript:`). */
export function Links({ entity }: { entity: EntityV3 }) {
  const elements = list(aspect(entity, 'institutionalMemory')?.elements).flatMap((e) => (str(e.url) ? [{ url: str(e.url) as string, description: str(e.description) }] : []));
  if (elements.length === 0) return null;
  return (
    <section class="card" aria-labelledby="links-title">
      <h2 id="links-title">Links</h2>
      <ul class="plain links">
        {elements.map(({ url, description }, i) => (
          <li key={i}>
            {/^https?:\/\//i.test(url) ? (
              <a href={url} rel="noopener noreferrer" target="_blank">
                {description ?? url}
              </a>
            ) : (
              <span>{description ?? url}</span>
            )}
            {description && <span class="muted"> {url}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
