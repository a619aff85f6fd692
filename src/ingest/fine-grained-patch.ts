import { isRecord } from '../json.js';

/**
 * Column lineage as DataHub's SDK patches it: `fineGrainedLineages` addressed as a tree,
 * `/fineGrainedLineages/<transformOperation>/<downstream field>/<query>/<upstream>` (`NONE` for
 * an absent operation or query), each leaf `{confidenceScore}`. The list is unfolded into that
 * tree for such operations and folded back after: one lineage per (operation, downstream, query)
 * with its upstreams in the order they came, the highest confidence of its leaves. (A query
 * other than `NONE` is written as the lineage's `query`, which the model served here has not:
 * such a patch is refused as invalid.)
 */
const FIELD = 'fineGrainedLineages';
const NONE = 'NONE';
const POSITION = /^(-|0|[1-9]\d*)$/;

type Tree = Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>;

/** Lineages the tree cannot address (no downstream): kept as they are, after the folded ones. */
const unaddressed = new WeakMap<object, unknown[]>();

/** Whether the operation's path addresses the tree (not the list, nor a position in it). */
export function addressesTree(path: string): boolean {
  const segments = path.split('/');
  return segments.length > 2 && segments[1] === FIELD && !POSITION.test(segments[2]);
}

/** The document with its fine-grained lineages as a tree (unchanged when they already are, or there are none). */
export function unfold(doc: unknown): void {
  if (!isRecord(doc)) return;
  const list = doc[FIELD];
  if (list !== undefined && !Array.isArray(list)) return;
  const tree: Tree = {};
  const kept: unknown[] = [];
  for (const lineage of list ?? []) {
    const downstreams = isRecord(lineage) && Array.isArray(lineage.downstreams) ? lineage.downstreams.filter((d): d is string => typeof d === 'string') : [];
    if (!isRecord(lineage) || downstreams.length === 0) {
      kept.push(lineage);
      continue;
    }
    const operation = typeof lineage.transformOperation === 'string' ? lineage.transformOperation : NONE;
    const query = typeof lineage.query === 'string' ? lineage.query : NONE;
    const upstreams = Array.isArray(lineage.upstreams) ? lineage.upstreams.filter((u): u is string => typeof u === 'string') : [];
    for (const downstream of downstreams) {
      const leaves = (((tree[operation] ??= {})[downstream] ??= {})[query] ??= {});
      for (const upstream of upstreams) leaves[upstream] = lineage.confidenceScore === undefined ? {} : { confidenceScore: lineage.confidenceScore };
    }
  }
  doc[FIELD] = tree;
  unaddressed.set(tree, kept);
}

/** The document with its fine-grained lineages as a list again. */
export function fold(doc: unknown): void {
  if (!isRecord(doc) || !isRecord(doc[FIELD])) return;
  const tree = doc[FIELD] as Tree;
  const list: unknown[] = [];
  for (const [operation, downstreams] of entries(tree)) {
    for (const [downstream, queries] of entries(downstreams)) {
      for (const [query, leaves] of entries(queries)) {
        const named: Record<string, unknown> = isRecord(leaves) ? leaves : {};
        const upstreams = Object.keys(named);
        if (upstreams.length === 0) continue;
        const scores = upstreams.map((u) => (isRecord(named[u]) ? named[u].confidenceScore : undefined)).filter((s): s is number => typeof s === 'number');
        list.push({
          upstreamType: upstreams.every((u) => u.startsWith('urn:li:dataset:')) ? 'DATASET' : 'FIELD_SET',
          upstreams,
          downstreamType: 'FIELD',
          downstreams: [downstream],
          ...(operation === NONE ? {} : { transformOperation: operation }),
          confidenceScore: scores.length > 0 ? Math.max(...scores) : 1,
          ...(query === NONE ? {} : { query }),
        });
      }
    }
  }
  doc[FIELD] = [...list, ...(unaddressed.get(tree) ?? [])];
}

function entries<T>(node: Record<string, T> | unknown): Array<[string, T]> {
  return isRecord(node) ? (Object.entries(node) as Array<[string, T]>) : [];
}
