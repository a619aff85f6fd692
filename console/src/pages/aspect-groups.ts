/**
 * The entity page's aspects, grouped the way a reader looks for them. DataHub's model has 199
 * aspects; the named ones below are those its entity types share, and the rest fall into a group
 * by their name's form (`…Key`, `…Properties`, `…Info`), or into "Other". First match wins.
 */
export interface AspectGroup {
  title: string;
  aspects: string[];
}

/**
 * DataHub's timeseries aspects: points in time, not versions. An entity read answers each with its
 * latest point; the rest are read through getTimeseriesAspectValues.
 */
export const TIMESERIES_ASPECTS: ReadonlySet<string> = new Set([
  'datasetProfile',
  'datasetUsageStatistics',
  'operation',
  'chartUsageStatistics',
  'dashboardUsageStatistics',
  'queryUsageStatistics',
  'dataProcessInstanceRunEvent',
  'assertionRunEvent',
  'datahubIngestionCheckpoint',
  'datahubIngestionRunSummary',
]);

const NAMED: Array<{ title: string; names: ReadonlySet<string> }> = [
  {
    title: 'Ownership and governance',
    names: new Set(['ownership', 'globalTags', 'glossaryTerms', 'domains', 'structuredProperties', 'testResults', 'forms', 'dynamicFormAssignment', 'access', 'incidentsSummary', 'businessAttributes', 'cost']),
  },
  { title: 'Structure', names: new Set(['schemaMetadata', 'editableSchemaMetadata', 'viewProperties', 'schemafieldInfo', 'schemaFieldAliases', 'inputFields']) },
  {
    title: 'Lineage and relations',
    names: new Set(['upstreamLineage', 'datasetUpstreamLineage', 'dataJobInputOutput', 'dataProcessInstanceInput', 'dataProcessInstanceOutput', 'dataProcessInstanceRelationships', 'siblings', 'querySubjects']),
  },
  { title: 'Statistics and operations', names: new Set([...TIMESERIES_ASPECTS, 'partitionsSummary']) },
  {
    title: 'Identity and description',
    names: new Set(['status', 'subTypes', 'container', 'browsePaths', 'browsePathsV2', 'dataPlatformInstance', 'deprecation', 'datasetDeprecation', 'institutionalMemory', 'embed', 'origin', 'documentation', 'versionInfo']),
  },
];

const IDENTITY = 'Identity and description';
const OTHER = 'Other';
const ORDER = [IDENTITY, ...NAMED.map((g) => g.title).filter((t) => t !== IDENTITY), OTHER];

export function groupOf(aspect: string): string {
  for (const group of NAMED) if (group.names.has(aspect)) return group.title;
  if (/(Key|Properties|Info)$/.test(aspect)) return IDENTITY;
  return OTHER;
}

/** The groups that hold any of `aspects`, in reading order, each list sorted. */
export function groupAspects(aspects: readonly string[]): AspectGroup[] {
  const byTitle = new Map<string, string[]>();
  for (const name of [...aspects].sort()) {
    const title = groupOf(name);
    byTitle.set(title, [...(byTitle.get(title) ?? []), name]);
  }
  return ORDER.flatMap((title) => (byTitle.has(title) ? [{ title, aspects: byTitle.get(title) ?? [] }] : []));
}
