/**
 * A warehouse-shaped lineage graph for bench/lineage.ts, the same for the same size and seed.
 *
 * Tables fall into domains (teams' pipelines), each a stack of layers: sources first (8% of the
 * domain, no upstreams), then staging, clean, facts, marts and so on. A table past the sources
 * has 1–5 upstreams (mean 3.2), most from the layer just below it, the rest from any layer below,
 * never from another domain. Beside the domains, a few shared dimensions (hubs) are upstream of
 * thousands of tables in the upper half of every domain's layers. So a source's downstream
 * closure is most of its domain, and a hub's is most of the warehouse but only ~13× its fan-out
 * within 3 hops. The first domain is sized so that its first source's closure is ~10% of the
 * tables (100,000 at 1M); the hub measured is the one whose 3-hop impact is nearest 1% (10,000).
 */
import { seeded } from '../test/seeded.js';

export interface WarehouseGraph {
  size: number;
  /** Table i's URN. */
  urn: (i: number) => string;
  /** Table i's upstreams: ups[upsFrom[i]] … ups[upsFrom[i + 1] - 1]. */
  upsFrom: Int32Array;
  ups: Int32Array;
  /** The same edges the other way: table i's direct downstreams. */
  downsFrom: Int32Array;
  downs: Int32Array;
  edges: number;
  /** The shared dimensions, by index, with their direct downstreams. */
  hubs: number[];
  /** The hub whose downstreams within 3 hops are nearest 1% of the tables. */
  hub: number;
  /** The source whose full downstream closure is measured (the first domain's first). */
  root: number;
  domains: number;
}

/** Shared dimensions' direct downstreams at 1M tables (scaled with the size). */
const HUB_FAN_OUT = [6000, 4000, 3000, 2000, 1500, 1000, 700, 500];
const HUB_NAMES = ['date', 'customer', 'product', 'region', 'currency', 'employee', 'channel', 'calendar'];
/** Upstreams of a table past the sources: 1 to 5, these weights (mean 3.2). */
const UPSTREAM_WEIGHTS = [0.15, 0.2, 0.2, 0.2, 0.25];
const SOURCE_SHARE = 0.08;
/** The first domain's share of the tables: its first source's closure comes to ~10% (98,015 at 1M). */
const ROOT_DOMAIN_SHARE = 0.2;
/** The share of the first domain's staging tables that read its first source, beside their own upstreams. */
const ROOT_READERS = 0.02;
const LAYER_NAMES = ['raw', 'stg', 'clean', 'int', 'fct', 'dim', 'mart', 'agg', 'rpt', 'export', 'ml', 'kpi'];
const SUBJECTS = ['orders', 'customers', 'payments', 'events', 'sessions', 'accounts', 'shipments', 'products', 'refunds', 'campaigns', 'tickets', 'ledger'];
const DOMAINS = ['sales', 'finance', 'hr', 'marketing', 'ops', 'product', 'support', 'legal', 'eng', 'data', 'risk', 'growth'];

export function warehouseGraph(size: number, seed = 20_261_129): WarehouseGraph {
  if (!Number.isInteger(size) || size < 1000) throw new Error('a warehouse graph has at least 1,000 tables');
  const random = seeded(seed);
  const below = (n: number) => Math.floor(random() * n);
  const hubCount = HUB_FAN_OUT.length;
  const names: string[] = HUB_NAMES.map((n) => `urn:li:dataset:(urn:li:dataPlatform:snowflake,shared.dim_${n},PROD)`);
  const layerOf = new Uint8Array(size);
  const tops = new Uint8Array(size); // the layer count of the table's domain
  /** Each table's domain start, and the start of each of its layers, for drawing upstreams. */
  const domainLayers: number[][] = [];
  const domainOf = new Int32Array(size);

  // Domains and layers: the first of 20%, the others 0.2–4% of the tables (log-uniform).
  let next = hubCount;
  while (next < size) {
    const d = domainLayers.length;
    const share = d === 0 ? ROOT_DOMAIN_SHARE : 0.002 * Math.pow(20, random());
    const domainSize = Math.min(size - next, Math.max(20, Math.round(share * size)));
    const layers = d === 0 ? 10 : 4 + below(8);
    const sources = Math.max(1, Math.round(domainSize * SOURCE_SHARE));
    const starts = [next];
    for (let k = 1; k < layers; k++) starts.push(next + sources + Math.round(((domainSize - sources) * (k - 1)) / (layers - 1)));
    starts.push(next + domainSize);
    domainLayers.push(starts);
    for (let k = 0; k < layers; k++) {
      for (let i = starts[k]; i < starts[k + 1]; i++) {
        layerOf[i] = k;
        tops[i] = layers;
        domainOf[i] = d;
        const platform = k === 0 ? ['postgres', 'kafka', 's3', 'mysql'][i % 4] : k < layers - 2 ? ['snowflake', 'hive'][i % 2] : ['snowflake', 'looker'][i % 2];
        names.push(`urn:li:dataset:(urn:li:dataPlatform:${platform},${DOMAINS[d % DOMAINS.length]}${d}.${LAYER_NAMES[k]}_${SUBJECTS[i % SUBJECTS.length]}_${i},PROD)`);
      }
    }
    next += domainSize;
  }

  // Hubs: each upstream of distinct tables in the upper half of their domain's layers.
  const hubUps = new Map<number, number[]>();
  for (let h = 0; h < hubCount; h++) {
    const fanOut = Math.max(2, Math.round((HUB_FAN_OUT[h] * size) / 1_000_000));
    const chosen = new Set<number>();
    while (chosen.size < fanOut) {
      const t = hubCount + below(size - hubCount);
      if (layerOf[t] * 2 >= tops[t] && !chosen.has(t)) {
        chosen.add(t);
        hubUps.set(t, [...(hubUps.get(t) ?? []), h]);
      }
    }
  }

  // Upstreams, table by table: 75% from the layer below, the rest from any layer below.
  const upsFrom = new Int32Array(size + 1);
  const ups: number[] = [];
  const picked = new Set<number>();
  for (let i = 0; i < size; i++) {
    upsFrom[i] = ups.length;
    if (i < hubCount) continue;
    const k = layerOf[i];
    if (k > 0) {
      const starts = domainLayers[domainOf[i]];
      const [prevFrom, prevTo, anyFrom] = [starts[k - 1], starts[k], starts[0]];
      let r = random();
      let count = 1;
      for (const w of UPSTREAM_WEIGHTS.slice(0, -1)) {
        if (r < w) break;
        r -= w;
        count++;
      }
      count = Math.min(count, prevTo - anyFrom);
      picked.clear();
      while (picked.size < count) picked.add(random() < 0.75 ? prevFrom + below(prevTo - prevFrom) : anyFrom + below(prevTo - anyFrom));
      // The root is a hot source (raw events, say): read by 2% of its domain's staging tables too.
      if (domainOf[i] === 0 && k === 1 && random() < ROOT_READERS) picked.add(starts[0]);
      for (const u of picked) ups.push(u);
    }
    for (const h of hubUps.get(i) ?? []) ups.push(h);
  }
  upsFrom[size] = ups.length;

  // The reverse adjacency, for the expected walks.
  const downsFrom = new Int32Array(size + 1);
  for (const u of ups) downsFrom[u + 1]++;
  for (let i = 0; i < size; i++) downsFrom[i + 1] += downsFrom[i];
  const downs = new Int32Array(ups.length);
  const fill = downsFrom.slice(0, size);
  for (let i = 0; i < size; i++) for (let j = upsFrom[i]; j < upsFrom[i + 1]; j++) downs[fill[ups[j]]++] = i;

  const graph = {
    size,
    urn: (i: number) => names[i],
    upsFrom,
    ups: Int32Array.from(ups),
    downsFrom,
    downs,
    edges: ups.length,
    hubs: Array.from({ length: hubCount }, (_, h) => h),
    hub: 0,
    root: hubCount,
    domains: domainLayers.length,
  };
  const target = size / 100;
  graph.hub = graph.hubs.reduce((best, h) => (Math.abs(reach(graph, h, 'DOWNSTREAM', 3).total - target) < Math.abs(reach(graph, best, 'DOWNSTREAM', 3).total - target) ? h : best));
  return graph;
}

/** What a walk from a table should reach: how many tables, and how many at each degree. */
export function reach(graph: WarehouseGraph, from: number, direction: 'UPSTREAM' | 'DOWNSTREAM', maxHops: number): { total: number; perHop: number[] } {
  const [starts, ends] = direction === 'UPSTREAM' ? [graph.upsFrom, graph.ups] : [graph.downsFrom, graph.downs];
  const seen = new Uint8Array(graph.size);
  seen[from] = 1;
  let frontier = [from];
  const perHop: number[] = [];
  while (frontier.length > 0 && perHop.length < maxHops) {
    const next: number[] = [];
    for (const t of frontier) {
      for (let j = starts[t]; j < starts[t + 1]; j++) {
        if (!seen[ends[j]]) {
          seen[ends[j]] = 1;
          next.push(ends[j]);
        }
      }
    }
    if (next.length > 0) perHop.push(next.length);
    frontier = next;
  }
  return { total: perHop.reduce((a, b) => a + b, 0), perHop };
}
