/** Schema field URNs and field paths as DataHub's timeline writes them. */

const FIELD_PATH_V2 = '[version=2.0]';

/**
 * `urn:li:schemaField:(<dataset>,<fieldPath>)`, the path's `(`, `)` and `,` percent-encoded as
 * DataHub encodes them (so the tuple still parses).
 */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  const encoded = fieldPath.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll(',', '%2C');
  return `urn:li:schemaField:(${datasetUrn},${encoded})`;
}

/**
 * A v2 field path (`[version=2.0].[type=struct].service.[type=int].id`) as the plain dotted path
 * it stands for (`service.id`): its `[…]` parts dropped. Other paths are returned as they are.
 */
export function downgradedFieldPath(fieldPath: string): string {
  if (!fieldPath.startsWith(FIELD_PATH_V2)) return fieldPath;
  return fieldPath
    .slice(FIELD_PATH_V2.length)
    .split('.')
    .filter((part) => part.length > 0 && !(part.startsWith('[') && part.endsWith(']')))
    .join('.');
}
