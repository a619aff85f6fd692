import { api, enc, V2, V3 } from '../api';
import { mutate } from '../components/graphql-call';
import { pointerSegment, type PropertyValue } from '../components/property-model';
import { aspect, entityTypeOf, type EntityV3 } from './entity-info';

/**
 * Compliance forms as the console reads them: a form is the entity `urn:li:form:…` with
 * `formInfo` (and `dynamicFormAssignment` when a filter assigns it); an asset's states are its
 * computed `forms` aspect; the to-do list and the completion counts have routes of their own.
 */
export interface FormPrompt {
  id: string;
  title: string;
  description?: string;
  type: string;
  structuredPropertyParams?: { urn: string };
  required?: boolean;
}

export interface FormInfo {
  name: string;
  description?: string;
  type?: 'COMPLETION' | 'VERIFICATION';
  prompts?: FormPrompt[];
  actors?: { owners?: boolean; users?: string[]; groups?: string[]; ownershipTypes?: string[] };
}

export interface FormState {
  urn: string;
  incompletePrompts?: { id: string }[];
  completedPrompts?: { id: string }[];
}

export interface FormsAspect {
  incompleteForms?: FormState[];
  completedForms?: FormState[];
  verifications?: { form: string }[];
}

export interface Completion {
  form: string;
  assigned: number;
  completed: number;
  incomplete: number;
  verified: number;
  prompts: { id: string; title: string; required: boolean; completed: number; incomplete: number }[];
}

export interface ToDo {
  asset: string;
  form: string;
  /** The prompts not answered yet (optional ones only, when awaiting verification). */
  incompletePrompts: string[];
  /** A VERIFICATION form whose required prompts are all answered: what is left is to verify it. */
  awaitingVerification: boolean;
}

export interface LoadedForm {
  urn: string;
  info: FormInfo;
  /** The filter of a dynamic assignment, as written. */
  filter?: unknown;
}

/** One form with its definition and assignment; undefined when it does not exist. */
export async function loadForm(urn: string, signal?: AbortSignal): Promise<LoadedForm | undefined> {
  const res = await api<EntityV3>('GET', `${V3}/form/${enc(urn)}?aspects=formInfo&aspects=dynamicFormAssignment`, { accept: [404], signal });
  if (res.status === 404) return undefined;
  const info = aspect(res.body, 'formInfo') as FormInfo | undefined;
  if (!info) return undefined;
  return { urn, info, filter: aspect(res.body, 'dynamicFormAssignment')?.filter };
}

/** Several forms' definitions at once, by URN (those that do not exist are left out). */
export async function loadFormInfos(urns: string[], signal?: AbortSignal): Promise<Map<string, FormInfo>> {
  const found = new Map<string, FormInfo>();
  if (urns.length === 0) return found;
  const body = { form: urns.map((urn) => ({ urn, formInfo: {} })) };
  const res = await api<Record<string, EntityV3[]>>('POST', `${V3}/generic/batchGet`, { body, signal });
  for (const entity of Object.values(res.body).flat()) {
    const info = aspect(entity, 'formInfo') as FormInfo | undefined;
    if (info) found.set(entity.urn, info);
  }
  return found;
}

interface ScrollAnswer {
  scrollId?: string | null;
  results: Array<{ urn: string; aspects?: Record<string, { value: unknown } | undefined> }>;
}

/** Every form of the catalog, by name. */
export async function loadAllForms(signal?: AbortSignal): Promise<LoadedForm[]> {
  const forms: LoadedForm[] = [];
  let scrollId: string | undefined;
  do {
    const query = new URLSearchParams({ count: '1000' });
    query.append('aspects', 'formInfo');
    query.append('aspects', 'dynamicFormAssignment');
    if (scrollId) query.set('scrollId', scrollId);
    const { body } = await api<ScrollAnswer>('GET', `${V2}/form?${query}`, { signal });
    for (const r of body.results) {
      const info = r.aspects?.formInfo?.value as FormInfo | undefined;
      if (info) forms.push({ urn: r.urn, info, filter: (r.aspects?.dynamicFormAssignment?.value as { filter?: unknown } | undefined)?.filter });
    }
    scrollId = body.scrollId ?? undefined;
  } while (scrollId);
  return forms.sort((a, b) => a.info.name.localeCompare(b.info.name));
}

export async function loadCompletion(urn: string, signal?: AbortSignal): Promise<Completion> {
  return (await api<Completion>('GET', `/openapi/v2/forms/${enc(urn)}/completion`, { signal })).body;
}

export async function loadToDo(signal?: AbortSignal): Promise<ToDo[]> {
  return (await api<{ forms: ToDo[] }>('GET', '/openapi/v2/forms/todo?count=200', { signal })).body.forms;
}

/** The entity types that may hold forms (the search of a form's assets covers them). */
const HOLDER_TYPES = ['dataset', 'dataJob', 'dataFlow', 'chart', 'dashboard', 'corpuser', 'corpGroup', 'domain', 'container', 'glossaryTerm', 'glossaryNode', 'mlModel', 'mlModelGroup', 'mlFeatureTable', 'mlFeature', 'mlPrimaryKey', 'schemaField', 'dataProduct'];

export interface HeldBy {
  urn: string;
  forms?: FormsAspect;
}

/** The assets holding a form (its incomplete and its completed ones), with their forms aspect, up to `limit`. */
export async function loadHolders(form: string, limit: number, signal?: AbortSignal): Promise<{ assets: HeldBy[]; more: boolean }> {
  const filter = { or: [{ and: [{ field: 'incompleteForms', values: [form] }] }, { and: [{ field: 'completedForms', values: [form] }] }] };
  const res = await api<ScrollAnswer>('POST', `${V2}/scroll?count=${limit}`, { body: { entities: HOLDER_TYPES, filter, aspects: ['forms'] }, signal });
  return {
    assets: res.body.results.map((r) => ({ urn: r.urn, forms: r.aspects?.forms?.value as FormsAspect | undefined })),
    more: !!res.body.scrollId,
  };
}

export type AssetState = 'incomplete' | 'complete' | 'verified';

/** Where an asset stands with a form, from its forms aspect. */
export function stateOf(forms: FormsAspect | undefined, form: string): { state: AssetState; done: number; open: number } | undefined {
  const incomplete = forms?.incompleteForms?.find((f) => f.urn === form);
  const complete = forms?.completedForms?.find((f) => f.urn === form);
  const held = incomplete ?? complete;
  if (!held) return undefined;
  const done = held.completedPrompts?.length ?? 0;
  const open = held.incompletePrompts?.length ?? 0;
  if (incomplete) return { state: 'incomplete', done, open };
  return { state: forms?.verifications?.some((v) => v.form === form) ? 'verified' : 'complete', done, open };
}

/** An asset's state in words; a VERIFICATION form complete but not verified awaits its verification. */
export function stateLabel(state: AssetState, info: FormInfo | undefined): string {
  if (state === 'complete' && info?.type === 'VERIFICATION') return 'Awaiting verification';
  return { incomplete: 'Incomplete', complete: 'Complete', verified: 'Verified' }[state];
}

/** The class of a state's chip: an asset awaiting verification is set apart from a done one. */
export function stateClass(state: AssetState, info: FormInfo | undefined): string {
  return `state state-${state === 'complete' && info?.type === 'VERIFICATION' ? 'awaiting' : state}`;
}

/** Answers a prompt: sets the property's values on the asset, leaving its other properties as they are. */
export async function answerPrompt(asset: string, property: string, values: PropertyValue[]): Promise<void> {
  await api('PATCH', `${V2}/${entityTypeOf(asset)}/${enc(asset)}/structuredProperties`, {
    contentType: 'application/json-patch+json',
    body: { patch: [{ op: 'add', path: `/properties/${pointerSegment(property)}`, value: { propertyUrn: property, values } }], arrayPrimaryKeys: { properties: ['propertyUrn'] } },
  });
}

/** The last step of a VERIFICATION form on an asset whose required prompts are answered (GraphQL verifyForm, as DataHub's UI). */
export async function verifyForm(asset: string, form: string): Promise<void> {
  await mutate('mutation($input: VerifyFormInput!) { verifyForm(input: $input) }', { input: { formUrn: form, entityUrn: asset } });
}

/** How many, the noun in the singular for one only: `1 asset`, `0 assets`, `2 optional prompts`. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Who a form asks, in words. */
export function actorsText(info: FormInfo): string[] {
  const actors = info.actors ?? { owners: true };
  const who: string[] = [];
  if (actors.owners !== false) who.push(actors.ownershipTypes?.length ? `owners of the asset (${actors.ownershipTypes.map((t) => t.replace(/^urn:li:ownershipType:/, '')).join(', ')})` : 'owners of the asset');
  for (const u of actors.users ?? []) who.push(u.replace(/^urn:li:corpuser:/, ''));
  for (const g of actors.groups ?? []) who.push(`group ${g.replace(/^urn:li:corpGroup:/, '')}`);
  return who;
}

interface Criterion {
  field?: string;
  value?: string;
  values?: string[];
  condition?: string;
  negated?: boolean;
}

const CONDITION_WORDS: Record<string, string> = { EQUAL: 'is', CONTAIN: 'contains', START_WITH: 'starts with', END_WITH: 'ends with', EXISTS: 'exists', GREATER_THAN: '>', LESS_THAN: '<', IN: 'is one of' };

/** A DataHub filter in words: `entity type is dataset and platform is kafka`, branches joined by `or`. */
export function filterText(filter: unknown): string[] {
  const branches = (filter as { or?: { and?: Criterion[] }[] } | undefined)?.or ?? [];
  return branches.map((branch) =>
    (branch.and ?? [])
      .map((c) => {
        const field = c.field === '_entityType' || c.field === 'entityType' ? 'entity type' : (c.field ?? '?');
        const values = c.values?.length ? c.values : c.value !== undefined ? [c.value] : [];
        const condition = CONDITION_WORDS[c.condition ?? 'EQUAL'] ?? (c.condition ?? '').toLowerCase();
        const said = condition === 'exists' ? `${field} exists` : `${field} ${values.length > 1 && condition === 'is' ? 'is one of' : condition} ${values.join(', ')}`;
        return c.negated ? `not (${said})` : said;
      })
      .join(' and '),
  );
}
