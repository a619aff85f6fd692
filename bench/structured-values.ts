/**
 * The structured properties the write benchmarks assign (structured.ts over HTTP, write-path.ts in
 * process): three definitions of different types, and the values of the n-th write.
 */
export const property = (qualifiedName: string) => `urn:li:structuredProperty:${qualifiedName}`;
export const TIER = property('bench.tier');
export const RETENTION = property('bench.retention');
export const REVIEWED = property('bench.reviewed');
export const TIERS = ['gold', 'silver', 'bronze'];

const definition = (qualifiedName: string, type: string, extra: object = {}) => ({
  qualifiedName,
  valueType: `urn:li:dataType:datahub.${type}`,
  cardinality: 'SINGLE',
  entityTypes: ['urn:li:entityType:datahub.dataset'],
  ...extra,
});
export const DEFINITIONS = [
  definition('bench.tier', 'string', { allowedValues: TIERS.map((string) => ({ value: { string } })) }),
  definition('bench.retention', 'number'),
  definition('bench.reviewed', 'date'),
];

const DAY = 86_400_000;
const EPOCH = Date.UTC(2000, 0, 1);
/** The n-th write's values: retention is new in every write, so every write stores a new version; tier and the review date change along with it. */
export const assignments = (n: number) => [
  { propertyUrn: TIER, values: [{ string: TIERS[n % TIERS.length] }] },
  { propertyUrn: RETENTION, values: [{ double: n }] },
  { propertyUrn: REVIEWED, values: [{ string: new Date(EPOCH + (n % 20_000) * DAY).toISOString().slice(0, 10) }] },
];
