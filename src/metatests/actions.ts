import type { Proposal } from '../ingest/proposal.js';
import type { EntityView } from '../read/read.js';
import { actionProperty } from './action-types.js';
import type { TestAction } from './definition.js';

/** The actor metadata tests write as when no caller is known (DataHub's system actor). */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/**
 * Turns a test's actions into proposals for one entity, attributed to the test (its URN is the
 * changes' actor, whoever ran the evaluation). Only what would change is proposed (a tag
 * already there is not added again), and keyed JSON patches touch only the items concerned, so
 * actions are idempotent and never clobber unrelated metadata.
 */
export function actionProposals(
  entity: EntityView,
  actions: readonly TestAction[],
  testUrn: string,
  numericProperty: (propertyUrn: string) => boolean,
): Proposal[] {
  const proposals: Proposal[] = [];
  const value = <T>(aspect: string) => entity.aspects.get(aspect)?.value as T | undefined;
  const patch = (aspect: string, keys: Record<string, string[]>, ops: Array<{ op: 'add' | 'remove'; path: string; value?: unknown }>) => {
    if (ops.length > 0) proposals.push({ urn: entity.urn, aspect, changeType: 'PATCH', patch: { patch: ops, arrayPrimaryKeys: keys }, actor: testUrn });
  };
  const upsert = (aspect: string, next: unknown) => proposals.push({ urn: entity.urn, aspect, changeType: 'UPSERT', value: next, actor: testUrn });
  /** Adds the keyed items that are missing, or removes those that are there (`{[key]: urn}` items). */
  const toggle = (aspect: string, field: string, key: string, urns: readonly string[], adding: boolean) => {
    const items = value<Record<string, Array<Record<string, string>>>>(aspect)?.[field] ?? [];
    const present = new Set(items.map((item) => item[key]));
    const ops = urns
      .filter((urn) => present.has(urn) !== adding)
      .map((urn) => (adding ? { op: 'add' as const, path: `/${field}/${pointer(urn)}`, value: { [key]: urn } } : { op: 'remove' as const, path: `/${field}/${pointer(urn)}` }));
    patch(aspect, { [field]: [key] }, ops);
  };

  for (const action of actions) {
    switch (action.type) {
      case 'ADD_TAGS':
      case 'REMOVE_TAGS':
        toggle('globalTags', 'tags', 'tag', action.values, action.type === 'ADD_TAGS');
        break;
      case 'ADD_GLOSSARY_TERMS':
      case 'REMOVE_GLOSSARY_TERMS':
        toggle('glossaryTerms', 'terms', 'urn', action.values, action.type === 'ADD_GLOSSARY_TERMS');
        break;
      case 'ADD_OWNERS':
      case 'REMOVE_OWNERS': {
        const owners = (value<{ owners?: Array<{ owner: string }> }>('ownership')?.owners ?? []).map((o) => o.owner);
        const ownerType = typeof action.params.ownerType === 'string' ? action.params.ownerType : 'NONE';
        const ops =
          action.type === 'ADD_OWNERS'
            ? action.values.filter((o) => !owners.includes(o)).map((owner) => ({ op: 'add' as const, path: `/owners/${pointer(owner)}`, value: { owner, type: ownerType } }))
            : action.values.flatMap((o) => owners.filter((x) => x === o).map(() => ({ op: 'remove' as const, path: `/owners/${pointer(o)}` })));
        patch('ownership', { owners: ['owner'] }, ops);
        break;
      }
      case 'SET_DOMAIN': {
        const domains = value<{ domains?: string[] }>('domains')?.domains ?? [];
        if (domains.length !== 1 || domains[0] !== action.values[0]) upsert('domains', { domains: [action.values[0]] });
        break;
      }
      case 'UNSET_DOMAIN':
        if ((value<{ domains?: string[] }>('domains')?.domains ?? []).length > 0) upsert('domains', { domains: [] });
        break;
      case 'SET_STRUCTURED_PROPERTY':
      case 'UNSET_STRUCTURED_PROPERTY': {
        const propertyUrn = actionProperty(action.params)!;
        const entries = value<{ properties?: Array<{ propertyUrn: string; values: unknown[] }> }>('structuredProperties')?.properties ?? [];
        const current = entries.find((e) => e.propertyUrn === propertyUrn);
        if (action.type === 'UNSET_STRUCTURED_PROPERTY') {
          if (current) patch('structuredProperties', { properties: ['propertyUrn'] }, [{ op: 'remove', path: `/properties/${pointer(propertyUrn)}` }]);
          break;
        }
        const numeric = numericProperty(propertyUrn);
        const values = action.values.map((v) => (numeric ? { double: Number(v) } : { string: v }));
        if (JSON.stringify(current?.values) !== JSON.stringify(values)) {
          patch('structuredProperties', { properties: ['propertyUrn'] }, [
            { op: 'add', path: `/properties/${pointer(propertyUrn)}`, value: { propertyUrn, values } },
          ]);
        }
        break;
      }
      case 'DEPRECATE':
      case 'UN_DEPRECATE': {
        const deprecated = action.type === 'DEPRECATE';
        if ((value<{ deprecated?: boolean }>('deprecation')?.deprecated ?? false) !== deprecated) {
          const note = typeof action.params.note === 'string' ? action.params.note : deprecated ? `Deprecated by metadata test ${testUrn}` : '';
          upsert('deprecation', { deprecated, note, actor: testUrn });
        }
        break;
      }
    }
  }
  return proposals;
}

/** A URN as one JSON Pointer segment. */
function pointer(urn: string): string {
  return urn.replace(/~/g, '~0').replace(/\//g, '~1');
}
