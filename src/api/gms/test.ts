import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../errors.js';
import type { MetadataTests } from '../../metatests/service.js';
import { parseUrn } from '../../urn/urn.js';
import { authorize } from '../auth.js';
import { writeContext } from '../context.js';

interface TestQuery {
  action?: string;
}

const schema = {
  tags: ['Metadata tests'],
  summary: 'Evaluate metadata tests: action=evaluate | batchEvaluate | evaluateDefinition',
  querystring: {
    type: 'object',
    properties: { action: { type: 'string', enum: ['evaluate', 'batchEvaluate', 'evaluateDefinition'] } },
    required: ['action'],
  },
  body: {
    type: 'object',
    description:
      'evaluate: {urn, push?, testUrns?} · batchEvaluate: {urns, push?, testUrns?} · evaluateDefinition: {urn, definition}. ' +
      "DataHub's spellings `tests` and `shouldPush` are accepted too.",
  },
};

/** `POST /gms/test?action=…`: DataHub's Rest.li test actions, answered in its `{value: …}` envelope. */
export function testRoutes(app: FastifyInstance, tests: MetadataTests): void {
  // Viewers may evaluate; pushing results and running actions is a write.
  app.post<{ Querystring: TestQuery; Body: unknown }>('/gms/test', { schema, config: { permission: 'read' } }, async (req) => {
    const body = record(req.body);
    const { actor } = writeContext(req);
    if (req.query.action !== 'evaluateDefinition' && pushFlag(body)) authorize(req, 'write', 'push test results');
    switch (req.query.action) {
      case 'evaluate': {
        const urn = urnField(body, 'urn');
        const results = await tests.evaluate([urn], { tests: testList(body), push: pushFlag(body), actor });
        return { value: results.get(urn) };
      }
      case 'batchEvaluate': {
        const urns = body.urns;
        if (!Array.isArray(urns) || urns.length === 0 || !urns.every((u) => typeof u === 'string')) {
          throw new ValidationError('urns must be a non-empty list of URNs');
        }
        urns.forEach((u) => parseUrn(u));
        const results = await tests.evaluate(urns, { tests: testList(body), push: pushFlag(body), actor });
        return { value: { results: Object.fromEntries(results) } };
      }
      default: {
        const urn = urnField(body, 'urn');
        if (body.definition === undefined) throw new ValidationError('definition is required');
        const { verdict, explanation } = await tests.evaluateDefinition(urn, body.definition);
        return { value: { result: verdict, explanation } };
      }
    }
  });
}

function record(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  return body as Record<string, unknown>;
}

function urnField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw new ValidationError(`${field} is required: the URN of the entity to evaluate`);
  return parseUrn(value).text;
}

/** `testUrns`, or DataHub's `tests`. */
function testList(body: Record<string, unknown>): string[] | undefined {
  const field = body.testUrns !== undefined ? 'testUrns' : 'tests';
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((t) => typeof t === 'string')) throw new ValidationError(`${field} must be a list of test URNs`);
  return value;
}

/** `push`, or DataHub's older `shouldPush`; default false. */
function pushFlag(body: Record<string, unknown>): boolean {
  const field = body.push !== undefined ? 'push' : 'shouldPush';
  const value = body[field] ?? false;
  if (typeof value !== 'boolean') throw new ValidationError(`${field} must be true or false`);
  return value;
}
