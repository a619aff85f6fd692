/**
 * The catalog plans.test.ts plans over: 200k datasets written straight into the search index's
 * tables as urnbase would write them (documents with weighted words, keyword and number rows of
 * several fields, their counts), and 50k lineage edges.
 */

const ENTITIES = 200_000;
const DOMAINS = ['sales', 'finance', 'hr', 'marketing', 'ops', 'product', 'support', 'legal', 'eng', 'data', 'risk', 'growth'];
const SUBJECTS = ['orders', 'customers', 'invoices', 'payments', 'events', 'sessions', 'users', 'accounts', 'shipments', 'products', 'refunds', 'leads', 'campaigns', 'tickets', 'contracts', 'employees', 'payroll', 'budgets', 'forecasts', 'inventory', 'suppliers', 'returns', 'clicks', 'impressions', 'subscriptions', 'churn', 'ledger', 'audits', 'claims', 'quotes'];
export const TIER = 'urn:li:structuredProperty:plans.tier';
export const RETENTION = 'urn:li:structuredProperty:plans.retention';
const DAY = 86_400_000;

/** The URN of the catalog's i-th dataset. */
export const catalogUrn = (i: number) =>
  `urn:li:dataset:(urn:li:dataPlatform:${i % 3 === 0 ? 'snowflake' : 'hive'},${DOMAINS[i % DOMAINS.length]}.${SUBJECTS[Math.floor(i / 4) % SUBJECTS.length]}_${i},PROD)`;

const array = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]`;

/** The catalog, as urnbase's index holds it: documents with weighted words, keyword and number rows, their counts. */
export const CATALOG = `
CREATE TEMP TABLE catalog AS
  SELECT i, 'urn:li:dataset:(urn:li:dataPlatform:' || (CASE WHEN i % 3 = 0 THEN 'snowflake' ELSE 'hive' END) || ',' || d || '.' || s || '_' || i || ',PROD)' AS urn, d, s
    FROM generate_series(0, ${ENTITIES - 1}) AS i,
         LATERAL (SELECT (${array(DOMAINS)})[i % ${DOMAINS.length} + 1] AS d, (${array(SUBJECTS)})[(i / 4) % ${SUBJECTS.length} + 1] AS s) AS words;
INSERT INTO search_entities (urn, type, doc)
  SELECT urn, 'dataset', format('%s:1A %s:2A %s:4B %s:5B %s:6B %s:8C %s:10D sales:11D', s, i, d, s, i, CASE WHEN i % 3 = 0 THEN 'snowflake' ELSE 'hive' END, s)::tsvector
    FROM catalog ORDER BY i;
INSERT INTO search_terms (field, value, urn)
  SELECT '${TIER}', (ARRAY['gold', 'silver', 'bronze'])[i % 3 + 1], urn FROM catalog
  UNION ALL SELECT 'platform', CASE WHEN i % 3 = 0 THEN 'urn:li:dataPlatform:snowflake' ELSE 'urn:li:dataPlatform:hive' END, urn FROM catalog
  UNION ALL SELECT 'name', s || '_' || i, urn FROM catalog
  UNION ALL SELECT 'tags', 'urn:li:tag:t' || (i % 50), urn FROM catalog
  UNION ALL SELECT 'tags', 'urn:li:tag:pii', urn FROM catalog WHERE i % 7 = 0
  UNION ALL SELECT 'removed', 'true', urn FROM catalog WHERE i % 1000 = 999;
INSERT INTO search_numbers (field, value, urn)
  SELECT '${RETENTION}', (i % 40) * 30, urn FROM catalog
  UNION ALL SELECT 'urn:li:structuredProperty:plans.reviewed', ${Date.UTC(2024, 0, 1)}::float8 + (i % 730) * ${DAY}::float8, urn FROM catalog
  UNION ALL SELECT 'urn:li:structuredProperty:plans.rows', i * 17 % 100003, urn FROM catalog;
-- Lineage: every fourth dataset is built from the one before it (50k edges).
INSERT INTO edges (source, relationship, destination, owner, aspect, source_type, destination_type)
  SELECT c.urn, 'DownstreamOf', p.urn, c.urn, 'upstreamLineage', 'dataset', 'dataset' FROM catalog c JOIN catalog p ON p.i = c.i - 1 WHERE c.i % 4 = 1;
INSERT INTO search_term_counts SELECT field, split_part(urn, ':', 3), value, count(*) FROM search_terms GROUP BY 1, 2, 3;
INSERT INTO search_number_counts SELECT field, split_part(urn, ':', 3), value, count(*) FROM search_numbers GROUP BY 1, 2, 3;
INSERT INTO search_type_counts SELECT type, count(*) FROM search_entities GROUP BY type;
`;

