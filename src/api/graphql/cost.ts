import { GraphQLError, Kind, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';
import { LIMITS } from '../../limits.js';

interface Cost {
  /** Field selections, each fragment counted at every use. */
  fields: number;
  /** The deepest chain of nested fields. */
  depth: number;
}

/**
 * A validation rule bounding what one operation may ask for before anything runs: its depth and
 * its number of fields, with each fragment counted wherever it is spread (a fragment spread ten
 * times in a fragment spread ten times is a hundred copies). Each fragment is measured once, so
 * measuring costs the document's size, not the expansion's.
 */
export const operationCost: ValidationRule = (context) => {
  const measured = new Map<string, Cost>();
  return {
    OperationDefinition(node) {
      const cost = measure(node.selectionSet, context, measured, new Set());
      const name = node.name ? `Operation ${node.name.value}` : 'The operation';
      const searches = rootCount(SEARCHES, node.selectionSet, context, new Map());
      if (searches > LIMITS.graphqlSearches) {
        context.reportError(new GraphQLError(`${name} runs ${searches} searches; at most ${LIMITS.graphqlSearches} may run in one operation`, { nodes: [node] }));
      }
      const fetches = rootCount(BATCH_FETCHES, node.selectionSet, context, new Map());
      if (fetches > LIMITS.graphqlBatchFetches) {
        context.reportError(new GraphQLError(`${name} runs ${fetches} entities fetches; at most ${LIMITS.graphqlBatchFetches} may run in one operation`, { nodes: [node] }));
      }
      if (cost.depth > LIMITS.graphqlDepth) {
        context.reportError(new GraphQLError(`${name} nests fields ${cost.depth} deep; the depth limit is ${LIMITS.graphqlDepth}`, { nodes: [node] }));
      }
      if (cost.fields > LIMITS.graphqlFields) {
        context.reportError(
          new GraphQLError(`${name} selects ${cost.fields.toLocaleString('en-US')} fields (fragments counted at each use); the complexity limit is ${LIMITS.graphqlFields.toLocaleString('en-US')}`, { nodes: [node] }),
        );
      }
    },
  };
};

function measure(set: SelectionSetNode | undefined, context: ValidationContext, measured: Map<string, Cost>, visiting: Set<string>): Cost {
  const cost: Cost = { fields: 0, depth: 0 };
  for (const selection of set?.selections ?? []) {
    let inner: Cost;
    if (selection.kind === Kind.FIELD) {
      const below = measure(selection.selectionSet, context, measured, visiting);
      inner = { fields: 1 + below.fields, depth: 1 + below.depth };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(selection.selectionSet, context, measured, visiting);
    } else {
      inner = fragmentCost(selection.name.value, context, measured, visiting);
    }
    // Saturating: a count past the limit is refused whatever its size, and must not overflow.
    cost.fields = Math.min(cost.fields + inner.fields, Number.MAX_SAFE_INTEGER);
    cost.depth = Math.max(cost.depth, inner.depth);
  }
  return cost;
}

/** The root fields that search, each of which may read thousands of results (a lineage search walks the graph, then reads a page). */
const SEARCHES: ReadonlySet<string> = new Set(['searchAcrossEntities', 'scrollAcrossEntities', 'searchAcrossLineage', 'scrollAcrossLineage']);
/** The root fields that fetch a list of URNs, each of which may read thousands of entities. */
const BATCH_FETCHES: ReadonlySet<string> = new Set(['entities']);

/** How many of the named fields an operation's root selection runs, through fragments on Query too (each counted once, then reused). */
function rootCount(names: ReadonlySet<string>, set: SelectionSetNode | undefined, context: ValidationContext, counted: Map<string, number>, visiting = new Set<string>()): number {
  let count = 0;
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) count += names.has(selection.name.value) ? 1 : 0;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += rootCount(names, selection.selectionSet, context, counted, visiting);
    else {
      const name = selection.name.value;
      let inFragment = counted.get(name);
      if (inFragment === undefined) {
        // A cycle is another rule's error; here it counts nothing.
        if (visiting.has(name)) continue;
        visiting.add(name);
        inFragment = rootCount(names, context.getFragment(name)?.selectionSet, context, counted, visiting);
        visiting.delete(name);
        counted.set(name, inFragment);
      }
      count += inFragment;
    }
    // Saturating, as fields are counted: a fragment spread many times many times is refused, not overflowed.
    count = Math.min(count, Number.MAX_SAFE_INTEGER);
  }
  return count;
}

function fragmentCost(name: string, context: ValidationContext, measured: Map<string, Cost>, visiting: Set<string>): Cost {
  const known = measured.get(name);
  if (known) return known;
  const fragment = context.getFragment(name);
  // Unknown fragments and cycles are other rules' errors; here they cost nothing.
  if (!fragment || visiting.has(name)) return { fields: 0, depth: 0 };
  visiting.add(name);
  const cost = measure(fragment.selectionSet, context, measured, visiting);
  visiting.delete(name);
  measured.set(name, cost);
  return cost;
}
