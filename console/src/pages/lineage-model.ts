import { api, enc } from '../api';
import { shortUrn } from '../components/common';
import { entityTypeOf } from './entity-info';
import { pathSegments } from './schema-model';

/**
 * Lineage as the console reads it: walks of `GET /openapi/v3/lineage/{type}/{urn}` (one hop at a
 * time from a node, or a whole column's walk), and what an entity's URN says of it (its name, its
 * kind, its platform), so that fifty nodes need no read each to be named.
 */

export type Direction = 'UPSTREAM' | 'DOWNSTREAM';
export type DegreeBucket = '1' | '2' | '3+';

export interface LineageResult {
  entity: string;
  entityType: string;
  /** The relationship of the edge it was reached by (DownstreamOf, Consumes, Produces, …). */
  type: string;
  degree: number;
  /** One shortest path, the walked entity first. */
  paths: string[][];
}

export interface LineageWalk {
  urn: string;
  direction: Direction;
  start: number;
  count: number;
  total: number;
  /** The walk ran out of its time budget: entities further away may be missing. */
  partial: boolean;
  degrees: Record<DegreeBucket, number>;
  results: LineageResult[];
}

/** The entity types DataHub's model draws lineage between (the server's walk kinds, schema fields aside). */
export const LINEAGE_TYPES = new Set(['dataset', 'dataJob', 'chart', 'dashboard', 'dataProcessInstance', 'mlModel', 'mlModelGroup', 'mlFeature', 'mlFeatureTable', 'mlPrimaryKey']);

export interface WalkOptions {
  start?: number;
  count?: number;
  /** Hops at most; the server's own limit when not given. */
  maxHops?: number;
  budgetMs?: number;
}

export async function walkLineage(urn: string, direction: Direction, options: WalkOptions, signal?: AbortSignal): Promise<LineageWalk> {
  const query = new URLSearchParams({ direction });
  for (const [name, value] of Object.entries(options)) if (value !== undefined) query.set(name, String(value));
  const answer = await api<LineageWalk>('GET', `/openapi/v3/lineage/${enc(entityTypeOf(urn))}/${enc(urn)}?${query}`, { signal });
  return answer.body;
}

/** A column of a dataset as the graph names it. */
export const fieldUrn = (dataset: string, fieldPath: string) => `urn:li:schemaField:(${dataset},${fieldPath})`;

/** The parts of a URN's key: `urn:li:dataJob:(urn:li:dataFlow:(airflow,f,prod),copy)` → [flow URN, `copy`]. */
export function keyParts(urn: string): string[] {
  const key = urn.replace(/^urn:li:[^:]+:/, '');
  if (!key.startsWith('(') || !key.endsWith(')')) return [key];
  const parts: string[] = [];
  let depth = 0;
  let from = 1;
  for (let i = 1; i < key.length - 1; i++) {
    if (key[i] === '(') depth++;
    else if (key[i] === ')') depth--;
    else if (key[i] === ',' && depth === 0) {
      parts.push(key.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(key.slice(from, key.length - 1));
  return parts;
}

/** How a node reads: `orders_clean`, a Dataset on snowflake; a Job `copy` on airflow in flow `export`. */
export interface NodeLabel {
  entityType: string;
  /** The entity type in a steward's words. */
  kind: string;
  name: string;
  platform?: string;
  /** Where it sits, when the URN says: a job's flow, a column's dataset, a non-production environment. */
  context?: string;
}

const KINDS: Record<string, string> = {
  dataset: 'Dataset',
  dataJob: 'Job',
  dataFlow: 'Pipeline',
  chart: 'Chart',
  dashboard: 'Dashboard',
  dataProcessInstance: 'Run',
  mlModel: 'ML model',
  mlModelGroup: 'ML model group',
  mlFeature: 'ML feature',
  mlFeatureTable: 'Feature table',
  mlPrimaryKey: 'ML primary key',
  schemaField: 'Column',
};

const platformName = (text: string | undefined) => (text ? text.replace(/^urn:li:dataPlatform:/, '') : undefined);

export function describeUrn(urn: string): NodeLabel {
  const entityType = entityTypeOf(urn);
  const kind = KINDS[entityType] ?? entityType;
  const parts = keyParts(urn);
  const plain = { entityType, kind, name: shortUrn(urn) };
  switch (entityType) {
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      if (parts.length !== 3) return plain;
      return { entityType, kind, name: parts[1], platform: platformName(parts[0]), context: parts[2] === 'PROD' ? undefined : parts[2] };
    case 'mlFeatureTable':
      return parts.length === 2 ? { entityType, kind, name: parts[1], platform: platformName(parts[0]) } : plain;
    case 'chart':
    case 'dashboard':
      return parts.length === 2 ? { entityType, kind, name: parts[1], platform: platformName(parts[0]) } : plain;
    case 'mlFeature':
    case 'mlPrimaryKey':
      return parts.length === 2 ? { entityType, kind, name: parts[1], context: parts[0] } : plain;
    case 'dataFlow':
      return parts.length === 3 ? { entityType, kind, name: parts[1], platform: platformName(parts[0]) } : plain;
    case 'dataJob': {
      if (parts.length !== 2) return plain;
      const flow = keyParts(parts[0]);
      return flow.length === 3 ? { entityType, kind, name: parts[1], platform: platformName(flow[0]), context: `in ${flow[1]}` } : { entityType, kind, name: parts[1] };
    }
    case 'schemaField': {
      if (parts.length !== 2) return plain;
      const dataset = describeUrn(parts[0]);
      return { entityType, kind, name: pathSegments(parts[1]).join('.'), platform: dataset.platform, context: dataset.name };
    }
    default:
      return plain;
  }
}

/** A column's dataset: `urn:li:schemaField:(<dataset>,<path>)` → the dataset's URN. */
export const datasetOfField = (urn: string) => keyParts(urn)[0];

/** `1 hop`, `2 hops`. */
export const hops = (n: number) => `${n} ${n === 1 ? 'hop' : 'hops'}`;
