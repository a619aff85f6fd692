/**
 * What one request may ask for. Each limit keeps a request's cost in proportion to its size and
 * far below what stalls the server, and each refusal names its limit (docs/operations.md lists them).
 */
export const LIMITS = {
  /**
   * The largest body a route that only reads takes (batchGet, scroll, evaluate): 10,000 URNs fit.
   * Receiving and parsing a body costs the event loop about 17 ms a megabyte, and reading is what
   * the lowest role may do; writes take up to --body-limit.
   */
  readBodyBytes: 2 * 1024 * 1024,
  /** URNs one batch read may name (v3 batchGet, generic batchGet). */
  batchReadUrns: 10_000,
  /** Entities one batchEvaluate may name: each is read and evaluated against every test. */
  evaluateUrns: 1_000,
  /** Aspect changes one write request may carry (before the side effects they imply). */
  proposals: 10_000,
  /** JSON characters of one metadata-test definition (real ones are a few kilobytes). */
  definitionChars: 256 * 1024,
  /** Predicates (and, or, not and leaves) of one metadata-test definition. */
  definitionPredicates: 1_000,
  /**
   * Values one aspect gives its entity's search index (tags, owners, terms, structured-property
   * values, …): each is a row, indexed in the write's transaction. 200,000 tags held the event
   * loop for seconds (each URN parsed, every row encoded into one PostgreSQL statement).
   */
  indexValues: 20_000,
  /**
   * Aspect versions one timeline reads (those in its window, and the one before each aspect's
   * first): each is parsed and compared with the one before. A narrower window reads fewer.
   */
  timelineVersions: 5_000,
  /**
   * JSON characters of the points one timeseries read answers with (getTimeseriesAspectValues
   * takes up to 10,000 points, and a profile with field statistics can weigh 100 KB): the points
   * are read a page at a time and the read stops past this, before the answer is built.
   */
  timeseriesAnswerChars: 64 * 2 ** 20,
  /** Conditions (query clauses, filter criteria) of one search. */
  searchConditions: 100,
  /** Values named by the conditions of one search, all together. */
  searchValues: 1_000,
  /** Tokens of one GraphQL document: parsing stops past them (graphql-java's default, which DataHub runs). */
  graphqlTokens: 15_000,
  /** How deeply one GraphQL operation may nest its fields, fragments expanded (DataHub's default). */
  graphqlDepth: 50,
  /** Fields one GraphQL operation may select, fragments expanded at each use (DataHub's complexity limit). */
  graphqlFields: 2_000,
  /** Results one GraphQL search page may have (start + count, or a scroll's count), as DataHub caps them. */
  graphqlResults: 10_000,
  /** Searches one GraphQL operation may run (aliases make many of one field): each may read graphqlResults. */
  graphqlSearches: 10,
  /** `entities(urns:)` fetches one GraphQL operation may run: each may read graphqlResults entities. */
  graphqlBatchFetches: 10,
} as const;

/** How much of a refused value an error message repeats. */
const ECHO_CHARS = 200;

/** A value as an error message quotes it: as JSON, cut short past ECHO_CHARS characters. */
export function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= ECHO_CHARS + 2) return text;
  return `${text.slice(0, ECHO_CHARS)}… (${text.length.toLocaleString('en-US')} characters)`;
}
