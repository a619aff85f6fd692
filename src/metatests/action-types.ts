import { isUrn } from '../urn/urn.js';

/** What a test may do to the entities it passes or fails (idempotent adds and removes). */
export const ACTION_TYPES = [
  'ADD_TAGS',
  'REMOVE_TAGS',
  'ADD_GLOSSARY_TERMS',
  'REMOVE_GLOSSARY_TERMS',
  'ADD_OWNERS',
  'REMOVE_OWNERS',
  'SET_DOMAIN',
  'UNSET_DOMAIN',
  'SET_STRUCTURED_PROPERTY',
  'UNSET_STRUCTURED_PROPERTY',
  'DEPRECATE',
  'UN_DEPRECATE',
] as const;

export type ActionType = (typeof ACTION_TYPES)[number];

/** The aspect each action writes. */
export const ACTION_ASPECT: Record<ActionType, string> = {
  ADD_TAGS: 'globalTags',
  REMOVE_TAGS: 'globalTags',
  ADD_GLOSSARY_TERMS: 'glossaryTerms',
  REMOVE_GLOSSARY_TERMS: 'glossaryTerms',
  ADD_OWNERS: 'ownership',
  REMOVE_OWNERS: 'ownership',
  SET_DOMAIN: 'domains',
  UNSET_DOMAIN: 'domains',
  SET_STRUCTURED_PROPERTY: 'structuredProperties',
  UNSET_STRUCTURED_PROPERTY: 'structuredProperties',
  DEPRECATE: 'deprecation',
  UN_DEPRECATE: 'deprecation',
};

const OWNERSHIP_TYPES = ['TECHNICAL_OWNER', 'BUSINESS_OWNER', 'DATA_STEWARD', 'NONE', 'DEVELOPER', 'DATAOWNER', 'DELEGATE', 'PRODUCER', 'CONSUMER', 'STAKEHOLDER', 'CUSTOM'];

/** The property an action sets or unsets (`propertyUrn`, or DataHub's `structuredPropertyUrn`). */
export function actionProperty(params: Record<string, string | string[]>): string | undefined {
  const value = params.propertyUrn ?? params.structuredPropertyUrn;
  return typeof value === 'string' ? value : undefined;
}

/** Why the action's parameters are wrong, or undefined. */
export function actionProblem(type: ActionType, values: readonly string[], params: Record<string, string | string[]>): string | undefined {
  const urnsOf = (...entityTypes: string[]) =>
    values.length === 0
      ? `${type} needs values: a list of ${entityTypes.join(' or ')} URNs`
      : values.find((v) => !isUrn(v, entityTypes)) !== undefined
        ? `${type} value ${JSON.stringify(values.find((v) => !isUrn(v, entityTypes)))} is not a ${entityTypes.join(' or ')} URN`
        : undefined;
  switch (type) {
    case 'ADD_TAGS':
    case 'REMOVE_TAGS':
      return urnsOf('tag');
    case 'ADD_GLOSSARY_TERMS':
    case 'REMOVE_GLOSSARY_TERMS':
      return urnsOf('glossaryTerm');
    case 'ADD_OWNERS': {
      const ownerType = params.ownerType;
      if (ownerType !== undefined && (typeof ownerType !== 'string' || !OWNERSHIP_TYPES.includes(ownerType))) {
        return `ownerType must be one of ${OWNERSHIP_TYPES.join(', ')}`;
      }
      return urnsOf('corpuser', 'corpGroup');
    }
    case 'REMOVE_OWNERS':
      return urnsOf('corpuser', 'corpGroup');
    case 'SET_DOMAIN':
      return values.length === 1 ? urnsOf('domain') : 'SET_DOMAIN needs exactly one domain URN';
    case 'SET_STRUCTURED_PROPERTY':
    case 'UNSET_STRUCTURED_PROPERTY': {
      const property = actionProperty(params);
      if (!isUrn(property, 'structuredProperty')) return `${type} needs propertyUrn, a structuredProperty URN`;
      return type === 'SET_STRUCTURED_PROPERTY' && values.length === 0 ? 'SET_STRUCTURED_PROPERTY needs values' : undefined;
    }
    case 'UNSET_DOMAIN':
    case 'DEPRECATE':
    case 'UN_DEPRECATE':
      return undefined;
  }
}
