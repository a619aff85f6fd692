import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { Breakable, ErrorMessage, Loading, shortUrn } from '../components/common';
import { MarkdownLine } from '../components/markdown';
import { currentRoute, href, navigate, type Route } from '../router';
import type { Session } from '../session';
import { descriptionOf, entityTypeOf, nameOf, platformOf, tagsOf, type EntityV3 } from './entity-info';
import { useNames } from './lineage-walk';
import { loadDefinitions, valueLabel, type PropertyDef } from './search-properties';
import { EXACT, facetKey, FACETS, MAX, MIN, PAGE_SIZE, propertyField, scrollCalls, searchHash, SYSTEM } from './search-query';
import './search.css';

/**
 * Search: free text searched as you type, facets that filter, structured-property filters typed by
 * their definitions, and pages of results. Everything is in the URL, so a reload or a shared link
 * shows the same results.
 */
interface Facet {
  field: string;
  aggregations: Record<string, number>;
}
interface Page {
  entities: EntityV3[];
  totalCount: number;
  scrollId: string | null;
  facets: Facet[];
}

/** Time between the last keystroke and the search. */
const DEBOUNCE_MS = 150;
/** Time between a search and the counting of its facets. */
const FACETS_DELAY_MS = 250;

const go = (changes: Record<string, string | string[] | undefined>, replace = false) => navigate(searchHash(currentRoute().params, changes), replace);

export default function Search({ route }: { route: Route; session: Session }) {
  const params = route.params;
  const key = params.toString();
  const [defs, setDefs] = useState<PropertyDef[]>();
  const [defsError, setDefsError] = useState<unknown>();
  // The answer shown, and the URL state it answers: while they differ, a search is under way.
  const [shown, setShown] = useState<{ key: string; page?: Page; error?: unknown }>({ key: '\u0000' });
  // Where each page starts, learnt while paging forward: scrollId → {previous scrollId, offset}.
  const [facets, setFacets] = useState<{ key: string; facets?: Facet[]; error?: unknown }>({ key: '\u0000' });
  const pages = useRef(new Map<string, { previous: string; offset: number }>());
  // Narrow windows show the results first and the filters on demand (wide ones always show them).
  const [filtersOpen, setFiltersOpen] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    loadDefinitions(controller.signal).then(setDefs, (e) => {
      if (controller.signal.aborted) return;
      setDefsError(e);
      setDefs([]);
    });
    return () => controller.abort();
  }, []);

  // Requests start as soon as the URL changes (a layout effect runs right after the render, not
  // after the next paint); the previous ones are aborted.
  useLayoutEffect(() => {
    const controller = new AbortController();
    const { path, body } = scrollCalls(params, []).results;
    api<Page>('POST', path, { body, signal: controller.signal }).then(
      (answer) => setShown({ key, page: answer.body }),
      (error) => controller.signal.aborted || setShown({ key, error }),
    );
    return () => controller.abort();
  }, [key]);

  const facetsKey = facetKey(params);
  useEffect(() => {
    if (!defs) return;
    const controller = new AbortController();
    const { path, body } = scrollCalls(params, defs).facets;
    // Counting facets over a broad result is the expensive part: it waits until typing pauses
    // longer, so that it never holds up the results of the next keystrokes.
    const timer = setTimeout(() => {
      api<Page>('POST', path, { body, signal: controller.signal }).then(
        (answer) => setFacets({ key: facetsKey, facets: answer.body.facets }),
        (error) => controller.signal.aborted || setFacets({ key: facetsKey, error }),
      );
    }, FACETS_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [facetsKey, defs]);

  const { page, error } = shown;
  const busy = shown.key !== key;
  const scrollId = params.get('scrollId') ?? '';
  const here = scrollId ? pages.current.get(scrollId) : { previous: '', offset: 0 };
  const next = () => {
    if (!page?.scrollId) return;
    pages.current.set(page.scrollId, { previous: scrollId, offset: (here?.offset ?? NaN) + page.entities.length });
    go({ scrollId: page.scrollId });
  };
  const previous = () => go({ scrollId: here?.previous || undefined });

  return (
    <div class="search">
      <h1>Search</h1>
      <SearchBox query={params.get('query') ?? ''} sort={params.get('sort') ?? ''} />
      <ErrorMessage error={defsError} />
      <button type="button" class="secondary search-filters-toggle" aria-expanded={filtersOpen} aria-controls="search-filters" onClick={() => setFiltersOpen(!filtersOpen)}>
        {filtersOpen ? 'Hide filters' : 'Filters'}
        {activeCount(params) > 0 ? ` (${activeCount(params)} in force)` : ''}
      </button>
      <div class="search-layout">
        <aside id="search-filters" class={`search-filters${filtersOpen ? ' open' : ''}`} aria-labelledby="filters-title" aria-busy={facets.key !== facetsKey && !facets.error}>
          <h2 id="filters-title">Filters</h2>
          <SystemToggle shown={params.get(SYSTEM) === '1'} />
          {facets.error ? (
            // The results say what is wrong with the search; its facets cannot be counted either.
            error ? <p class="muted">No filters until the search can be run.</p> : <ErrorMessage error={facets.error} />
          ) : facets.facets ? (
            <FacetPanel params={params} facets={facets.facets} defs={defs ?? []} />
          ) : (
            <Loading />
          )}
        </aside>
        <section class="search-results" aria-labelledby="results-title" aria-busy={busy}>
          <h2 id="results-title">Results</h2>
          <ActiveFilters params={params} defs={defs ?? []} />
          <SearchError error={error} />
          {busy ? (
            <Loading label="Searching…" />
          ) : page ? (
            <p class="muted" role="status">
              {countText(page.totalCount, here?.offset, page.entities.length)}
            </p>
          ) : null}
          {!busy && page?.totalCount === 0 && facetKey(params) === '' && (
            <p class="muted">The catalog holds only its own entities so far (data platforms, data types, entity types): check Show system entities to see them, or write some metadata.</p>
          )}
          {page && page.entities.length > 0 && (
            <ol class="results">
              {page.entities.map((e) => (
                <Result key={e.urn} entity={e} />
              ))}
            </ol>
          )}
          {!busy && page && (scrollId || page.scrollId) && (
            <nav class="row pager" aria-label="Pages">
              {scrollId && (
                <button type="button" class="secondary" onClick={previous}>
                  {here ? 'Previous page' : 'First page'}
                </button>
              )}
              {page.scrollId && (
                <button type="button" class="secondary" onClick={next}>
                  Next page
                </button>
              )}
            </nav>
          )}
        </section>
      </div>
    </div>
  );
}

/** The catalog's own entities (SYSTEM_TYPES), left out of every search unless this is checked. */
function SystemToggle({ shown }: { shown: boolean }) {
  return (
    <div class="check search-system">
      <input id="search-system" type="checkbox" checked={shown} aria-describedby="search-system-help" onChange={(e) => go({ [SYSTEM]: (e.target as HTMLInputElement).checked ? '1' : undefined })} />
      <label for="search-system">Show system entities</label>
      <span id="search-system-help" class="muted search-system-help">
        Data platforms, data types and entity types
      </span>
    </div>
  );
}

/** A search the server cannot run says so in words; other failures as they came. */
function SearchError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 400) {
    return (
      <p class="error" role="alert">
        This search cannot be run: {error.message}
      </p>
    );
  }
  return <ErrorMessage error={error} />;
}

/** How many filters are in force (facet values, property values and bounds). */
function activeCount(params: URLSearchParams): number {
  let count = 0;
  for (const [key] of params) if (FACETS.some((f) => f.param === key) || key.startsWith(EXACT) || key.startsWith(MIN) || key.startsWith(MAX)) count++;
  return count;
}

function countText(total: number, offset: number | undefined, shown: number): string {
  const noun = total === 1 ? 'result' : 'results';
  if (shown === 0 || total <= PAGE_SIZE) return `${total} ${noun}`;
  if (offset === undefined || Number.isNaN(offset)) return `${shown} of ${total} ${noun}`;
  return `${offset + 1}–${offset + shown} of ${total} ${noun}`;
}

function SearchBox({ query, sort }: { query: string; sort: string }) {
  const [text, setText] = useState(query);
  // The query this box last put in the URL: a URL change from elsewhere (back, a link) updates the box.
  const sent = useRef(query);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    if (query !== sent.current) {
      sent.current = query;
      clearTimeout(timer.current);
      setText(query);
    }
  }, [query]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onInput = (event: Event) => {
    const value = (event.target as HTMLInputElement).value;
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      sent.current = value;
      go({ query: value }, true);
    }, DEBOUNCE_MS);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    clearTimeout(timer.current);
    sent.current = text;
    go({ query: text }, true);
  };
  return (
    <form class="search-box" role="search" onSubmit={submit}>
      <div class="search-query">
        <label for="search-query">Search the catalog</label>
        <input id="search-query" type="search" value={text} onInput={onInput} placeholder="orders, tags:pii, structuredProperties.retention:>=90" autocomplete="off" spellcheck={false} />
      </div>
      <div class="search-sort">
        <label for="search-sort">Sort by</label>
        <select id="search-sort" value={sort} onChange={(e) => go({ sort: (e.target as HTMLSelectElement).value }, true)}>
          <option value="">Best match</option>
          <option value="name">Name (A–Z)</option>
          <option value="-name">Name (Z–A)</option>
        </select>
      </div>
    </form>
  );
}

function Result({ entity }: { entity: EntityV3 }) {
  const description = descriptionOf(entity);
  const platform = platformOf(entity);
  const tags = tagsOf(entity);
  return (
    <li class="card result">
      <h3>
        <a href={href('/entity', { urn: entity.urn })}>
          <Breakable text={nameOf(entity)} />
        </a>
      </h3>
      <p class="muted result-meta">
        <span>{entityTypeOf(entity.urn)}</span>
        {platform && <span>{shortUrn(platform)}</span>}
        <code class="result-urn">
          <Breakable text={entity.urn} />
        </code>
      </p>
      {description && <MarkdownLine text={description} max={300} class="result-description" />}
      {tags.length > 0 && (
        <ul class="chips" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag} class="chip">
              {shortUrn(tag)}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

const facetLabel = (param: string, value: string, names: Map<string, string>) => (param === 'type' ? value : param === 'domains' ? (names.get(value) ?? shortUrn(value)) : shortUrn(value));

function toggle(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

function FacetPanel({ params, facets, defs }: { params: URLSearchParams; facets: Facet[]; defs: PropertyDef[] }) {
  const counts = new Map(facets.map((f) => [f.field, f.aggregations]));
  const groups = FACETS.map((facet) => ({ facet, values: counts.get(facet.field) ?? {}, selected: params.getAll(facet.param) })).filter(
    (g) => Object.keys(g.values).length > 0 || g.selected.length > 0,
  );
  const properties = defs.filter(
    (d) => !d.hidden && (Object.keys(counts.get(propertyField(d.qualifiedName)) ?? {}).length > 0 || params.has(EXACT + d.qualifiedName) || params.has(MIN + d.qualifiedName) || params.has(MAX + d.qualifiedName)),
  );
  // Domains by their names (domainProperties.name): their ids are often opaque.
  const names = useNames(groups.filter((g) => g.facet.param === 'domains').flatMap((g) => [...new Set([...Object.keys(g.values), ...g.selected])]));
  if (groups.length === 0 && properties.length === 0) return <p class="muted">Nothing to filter by.</p>;
  return (
    <>
      {groups.map(({ facet, values, selected }) => (
        <div class="facet" key={facet.param}>
          <h3 id={`facet-${facet.param}`}>{facet.title}</h3>
          <FacetValues title={facet.title} labelledBy={`facet-${facet.param}`} param={facet.param} selected={selected} counts={values} label={(v) => facetLabel(facet.param, v, names)} />
        </div>
      ))}
      {properties.length > 0 && <h3 class="facet-properties">Structured properties</h3>}
      {properties.map((def, i) => (
        <PropertyFilter key={def.urn} id={`pf-${i}`} def={def} params={params} values={counts.get(propertyField(def.qualifiedName)) ?? {}} />
      ))}
    </>
  );
}

/** Values shown before "Show all". */
const FEW = 8;

/** A facet's values with their counts (the most frequent first, selected ones always), each a toggle. */
function FacetValues(props: { title: string; labelledBy?: string; param: string; selected: string[]; counts: Record<string, number>; label: (value: string) => string }) {
  const { param, selected, counts, label } = props;
  const [all, setAll] = useState(false);
  const values = [...new Set([...selected, ...Object.keys(counts)])];
  if (values.length === 0) return null;
  const shown = all ? values : values.slice(0, Math.max(FEW, selected.length));
  return (
    <>
      <ul aria-labelledby={props.labelledBy}>
        {shown.map((value) => (
          <li key={value}>
            <button type="button" class="facet-value" aria-pressed={selected.includes(value)} title={value} onClick={() => go({ [param]: toggle(selected, value) })}>
              {label(value)} ({counts[value] ?? 0})
            </button>
          </li>
        ))}
      </ul>
      {values.length > shown.length && (
        <button type="button" class="link facet-more" aria-label={`Show all ${values.length} values of ${props.title}`} onClick={() => setAll(true)}>
          Show all {values.length}
        </button>
      )}
    </>
  );
}

/** One property's filter: its values with counts, and the control its value type calls for. */
function PropertyFilter({ id, def, params, values }: { id: string; def: PropertyDef; params: URLSearchParams; values: Record<string, number> }) {
  const exactKey = EXACT + def.qualifiedName;
  const selected = params.getAll(exactKey);
  if (def.allowed) {
    return (
      <fieldset class="facet property-filter">
        <legend>{def.displayName}</legend>
        {def.allowed.map((a, j) => (
          <div class="check" key={a.value}>
            <input id={`${id}-${j}`} type="checkbox" checked={selected.includes(a.value)} onChange={() => go({ [exactKey]: toggle(selected, a.value) })} />
            <label for={`${id}-${j}`}>
              {valueLabel(def, a.value)} ({values[a.value] ?? 0})
            </label>
          </div>
        ))}
      </fieldset>
    );
  }
  return (
    <fieldset class="facet property-filter">
      <legend>{def.displayName}</legend>
      <FacetValues title={def.displayName} param={exactKey} selected={selected} counts={values} label={(v) => valueLabel(def, v)} />
      {def.kind === 'number' || def.kind === 'date' ? <RangeFilter id={id} def={def} params={params} /> : <ValueFilter id={id} def={def} />}
    </fieldset>
  );
}

function RangeFilter({ id, def, params }: { id: string; def: PropertyDef; params: URLSearchParams }) {
  const min = params.get(MIN + def.qualifiedName) ?? '';
  const max = params.get(MAX + def.qualifiedName) ?? '';
  const [low, setLow] = useState(min);
  const [high, setHigh] = useState(max);
  useEffect(() => setLow(min), [min]);
  useEffect(() => setHigh(max), [max]);
  const type = def.kind === 'date' ? 'date' : 'number';
  const [lowLabel, highLabel] = def.kind === 'date' ? ['From', 'To'] : ['Min', 'Max'];
  const apply = (event: Event) => {
    event.preventDefault();
    go({ [MIN + def.qualifiedName]: low.trim(), [MAX + def.qualifiedName]: high.trim() });
  };
  return (
    <form class="range" onSubmit={apply} aria-label={`${def.displayName} range`}>
      <div>
        <label for={`${id}-min`}>{lowLabel}</label>
        <input id={`${id}-min`} type={type} step="any" value={low} onInput={(e) => setLow((e.target as HTMLInputElement).value)} />
      </div>
      <div>
        <label for={`${id}-max`}>{highLabel}</label>
        <input id={`${id}-max`} type={type} step="any" value={high} onInput={(e) => setHigh((e.target as HTMLInputElement).value)} />
      </div>
      <button type="submit" class="secondary" aria-label={`Apply ${def.displayName} range`}>
        Apply
      </button>
    </form>
  );
}

function ValueFilter({ id, def }: { id: string; def: PropertyDef }) {
  const [value, setValue] = useState('');
  const key = EXACT + def.qualifiedName;
  const add = (event: Event) => {
    event.preventDefault();
    if (value.trim() === '') return;
    const selected = currentRoute().params.getAll(key);
    if (!selected.includes(value.trim())) go({ [key]: [...selected, value.trim()] });
    setValue('');
  };
  return (
    <form class="range" onSubmit={add} aria-label={`${def.displayName} value`}>
      <div>
        <label for={`${id}-value`}>Value is</label>
        <input id={`${id}-value`} type="text" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
      </div>
      <button type="submit" class="secondary" aria-label={`Filter ${def.displayName} by value`}>
        Add
      </button>
    </form>
  );
}

/** The filters in force, each removable. */
function ActiveFilters({ params, defs }: { params: URLSearchParams; defs: PropertyDef[] }) {
  const byName = new Map(defs.map((d) => [d.qualifiedName, d]));
  const names = useNames(params.getAll('domains'));
  const chips: Array<{ label: string; remove: () => void }> = [];
  for (const facet of FACETS) {
    const selected = params.getAll(facet.param);
    for (const value of selected) chips.push({ label: `${facet.title}: ${facetLabel(facet.param, value, names)}`, remove: () => go({ [facet.param]: selected.filter((v) => v !== value) }) });
  }
  for (const [key, value] of params) {
    const [prefix, name] = key.startsWith(EXACT) ? [EXACT, key.slice(EXACT.length)] : key.startsWith(MIN) ? [MIN, key.slice(MIN.length)] : key.startsWith(MAX) ? [MAX, key.slice(MAX.length)] : [];
    if (!prefix || !name) continue;
    const def = byName.get(name);
    const title = def?.displayName ?? name;
    const shown = valueLabel(def, value);
    const label = prefix === EXACT ? `${title}: ${shown}` : prefix === MIN ? `${title} ≥ ${shown}` : `${title} ≤ ${shown}`;
    chips.push({ label, remove: () => go({ [key]: params.getAll(key).filter((v) => v !== value) }) });
  }
  if (chips.length === 0) return null;
  return (
    <div class="row active-filters">
      <ul class="chips" aria-label="Filters in force">
        {chips.map((chip) => (
          <li key={chip.label} class="chip">
            {chip.label}{' '}
            <button type="button" class="link" aria-label={`Remove filter ${chip.label}`} onClick={chip.remove}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <button type="button" class="link" onClick={() => navigate(searchHash(new URLSearchParams(), { query: params.get('query') ?? undefined, sort: params.get('sort') ?? undefined, [SYSTEM]: params.get(SYSTEM) ?? undefined }))}>
        Clear all filters
      </button>
    </div>
  );
}
