/** The structured-property records as stored (DataHub's StructuredPropertyDefinition & co.). */

/** A value: exactly one typed member. */
export type PrimitiveValue = { string: string } | { double: number };

export interface AllowedValue {
  value: PrimitiveValue;
  description?: string;
}

export interface PropertyDefinition {
  qualifiedName: string;
  displayName?: string;
  valueType: string;
  typeQualifier?: Record<string, string[]>;
  allowedValues?: AllowedValue[];
  cardinality?: 'SINGLE' | 'MULTIPLE';
  entityTypes: string[];
  description?: string;
  immutable?: boolean;
  version?: string;
}

export interface Assignment {
  propertyUrn: string;
  values: PrimitiveValue[];
}

export interface StructuredPropertiesAspect {
  properties: Assignment[];
}

export interface PropertySettings {
  isHidden?: boolean;
  showInSearchFilters?: boolean;
  showInAssetSummary?: boolean;
  hideInAssetSummaryWhenEmpty?: boolean;
  showAsAssetBadge?: boolean;
  showInColumnsTable?: boolean;
}

export interface Status {
  removed?: boolean;
}

export const PROPERTY_ENTITY = 'structuredProperty';

export function isSoftDeleted(status: unknown): boolean {
  return (status as Status | undefined)?.removed === true;
}

/** The entityType URN of an entity type name: `dataset` → `urn:li:entityType:datahub.dataset`. */
export function entityTypeUrn(name: string): string {
  return `urn:li:entityType:datahub.${name}`;
}
