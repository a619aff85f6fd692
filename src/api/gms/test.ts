import type { FastifyInstance } from 'fastify';
import { TooLargeError, ValidationError } from '../../errors.js';
import { LIMITS } from '../../limits.js';
import type { MetadataTests } from '../../metatests/service.js';
import { parseUrn } from '../../urn/urn.js';
import { ref } from '../answers.js';
import { authorize } from '../auth.js';
import { writeContext } from '../context.js';

interface TestQuery {
  action?: string;
}

const schema = {
  // DataHub's are Rest.li actions (evaluate, batchEvaluate) rather than OpenAPI operations.
  operationId: 'evaluateTests',
  tags: ['Metadata tests'],
  summary: 'Evaluate metadata tests: action=evaluate | batchEvaluate | evaluateDefinition; and vocabulary (urnbase\'s: the words a definition may use)',
  querystring: {
    type: 'object',
    properties: { action: { type: 'string', enum: ['evaluate', 'batchEvaluate', 'evaluateDefinition', 'vocabulary'] } },
    required: ['action'],
  },
  body: {
    type: 'object',
    description:
      'evaluate: {urn, push?, testUrns?} · batchEvaluate: {urns, push?, testUrns?} · evaluateDefinition: {urn, definition} · vocabulary: {types?}. ' +
      "DataHub's spellings `tests` and `shouldPush` are accepted too.",
  },
  answers: {
    200: { description: 'The results in Rest.li\'s {value: …} envelope', body: ref('TestEvaluation') },
    400: 'A missing or invalid field, an invalid definition, or a write its rules refuse (push, actions)',
    // Routes declare `read`; pushing asks for `write` here (openapi.ts adds 401 and 429 for the route).
    403: 'push=true with a token whose role may not write',
    404: 'No such entity',
    409: 'Too many concurrent writes to the same aspects (push, actions)',
    412: 'The results changed under a push too many times in a row (push)',
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
        if (urns.length > LIMITS.evaluateUrns) {
          throw new TooLargeError(`A batchEvaluate may name at most ${LIMITS.evaluateUrns.toLocaleString('en-US')} URNs; this one names ${urns.length.toLocaleString('en-US')}`);
        }
        urns.forEach((u) => parseUrn(u));
        const results = await tests.evaluate(urns, { tests: testList(body), push: pushFlag(body), actor });
        return { value: { results: Object.fromEntries(results) } };
      }
      case 'vocabulary':
        // For editors: the property paths known on the types, and the operators.
        return { value: tests.vocabulary(body.types) };
      default: {
        const urn = urnField(body, 'urn');
        if (body.definition === undefined) throw new ValidationError('definition is required');
        const { verdict, explanation, note } = await tests.evaluateDefinition(urn, body.definition);
        return { value: { result: verdict, explanation, ...(note ? { note } : {}) } };
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

const testResult = {
  type: 'object',
  required: ['test', 'type', 'testDefinitionMd5', 'lastComputed'],
  properties: {
    test: { type: 'string', description: 'Test URN' },
    type: { type: 'string', enum: ['SUCCESS', 'FAILURE'] },
    testDefinitionMd5: { type: 'string' },
    lastComputed: ref('AuditStamp'),
  },
};

/** The shapes of this answer, as named schemas of the API document. */
export const testShapes = {
  FailedCondition: {
    type: 'object',
    required: ['condition', 'property', 'operator', 'values', 'found'],
    properties: {
      condition: { type: 'string', description: 'Where in the definition, e.g. rules.and[1]' },
      property: { type: 'string' },
      operator: { type: 'string' },
      values: { type: 'array', items: { type: 'string' } },
      found: { type: 'array', items: {}, description: 'What the property held' },
      negated: { type: 'boolean', description: 'The condition held, but it sits under a `not`' },
      undecided: { type: 'string', description: 'The condition could not be judged (a lineage step reached more entities than it may): why' },
    },
  },
  TestResults: {
    type: 'object',
    required: ['passing', 'failing'],
    properties: {
      passing: { type: 'array', items: testResult },
      failing: {
        type: 'array',
        items: { ...testResult, properties: { ...testResult.properties, explanation: { type: 'array', items: ref('FailedCondition') } } },
      },
    },
  },
  TestEvaluation: {
    type: 'object',
    required: ['value'],
    properties: {
      value: {
        description: 'evaluate: TestResults · batchEvaluate: {results: {urn: TestResults}} · evaluateDefinition: {result, explanation, note?} · vocabulary: {entityTypes, properties, operators}',
        oneOf: [
          ref('TestResults'),
          {
            type: 'object',
            required: ['results'],
            properties: { results: { type: 'object', additionalProperties: ref('TestResults'), description: 'URN → results' } },
          },
          {
            type: 'object',
            required: ['result', 'explanation'],
            properties: {
              result: { type: 'string', enum: ['PASS', 'FAIL', 'NOT_SELECTED'] },
              explanation: { type: 'array', items: ref('FailedCondition') },
              note: { type: 'string', description: 'Only for the empty definition {}: it selects nothing' },
            },
          },
          {
            type: 'object',
            required: ['entityTypes', 'properties', 'operators'],
            properties: {
              entityTypes: { type: 'array', items: { type: 'string' }, description: 'The entity types a test may select' },
              properties: { type: 'array', items: { type: 'string' }, description: 'Property paths known on the types (not every valid one: URN hops, map keys, lineage steps and structured properties are not listed)' },
              operators: {
                type: 'array',
                items: { type: 'object', required: ['name', 'binary'], properties: { name: { type: 'string' }, binary: { type: 'boolean', description: 'It takes values' } } },
              },
            },
          },
        ],
      },
    },
  },
};
