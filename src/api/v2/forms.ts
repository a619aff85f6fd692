import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../errors.js';
import type { Services } from '../../services.js';
import { ref } from '../answers.js';
import { MAX_COUNT } from '../params.js';
import { typedUrn } from '../urns.js';

const READ = { permission: 'read' } as const;
const tags = ['Forms'];
export const TODO_DEFAULT = 100;

/** `count` of the to-do list: a whole number from 1, capped at MAX_COUNT as page sizes are. */
function todoCount(text: string | undefined): number {
  if (text === undefined) return TODO_DEFAULT;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new ValidationError(`count must be a positive integer, got ${JSON.stringify(text)}`);
  return Math.min(n, MAX_COUNT);
}

/** Forms as their users see them: the signed-in person's forms to fill in or verify, and a form's completion. */
export function formRoutesV2(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: { count?: string } }>(
    '/openapi/v2/forms/todo',
    {
      config: READ,
      schema: {
        operationId: 'listMyForms',
        tags,
        summary:
          'The forms the signed-in person is asked to fill in (an actor of the form, or an owner of the asset where the form asks owners): the open ones with the prompts still unanswered, and the VERIFICATION forms complete but not verified yet',
        querystring: {
          type: 'object',
          properties: { count: { type: 'string', description: `at most this many (asset, form) pairs (default ${TODO_DEFAULT}, at most ${MAX_COUNT})` } },
        },
        answers: {
          200: { description: 'One entry per asset and form open or awaiting verification', body: ref('FormsToDo') },
          400: 'count is not a whole number from 1',
        },
      },
    },
    async (req) => ({ forms: await services.forms.todo(req.principal!.actor, todoCount(req.query.count)) }),
  );

  app.get<{ Params: { urn: string } }>(
    '/openapi/v2/forms/:urn/completion',
    {
      config: READ,
      schema: {
        operationId: 'getFormCompletion',
        tags,
        summary: 'How far a form is filled in: its assets assigned, completed, incomplete and verified, and per prompt those that answered it',
        params: { type: 'object', properties: { urn: { type: 'string', description: 'Percent-encoded form URN' } }, required: ['urn'] },
        answers: {
          200: { description: 'The counts, from the search index', body: ref('FormCompletion') },
          400: 'An invalid URN, or one that is not a form',
          404: 'The form does not exist',
        },
      },
    },
    async (req) => {
      typedUrn(services.registry, 'form', req.params.urn);
      return services.forms.completion(req.params.urn);
    },
  );
}

/** The shapes of these answers, as named schemas of the API document. */
export const formShapes = {
  FormsToDo: {
    type: 'object',
    required: ['forms'],
    properties: {
      forms: {
        type: 'array',
        items: {
          type: 'object',
          required: ['asset', 'form', 'incompletePrompts', 'awaitingVerification'],
          properties: {
            asset: { type: 'string', description: 'The asset URN' },
            form: { type: 'string', description: 'The form URN' },
            incompletePrompts: { type: 'array', items: { type: 'string' }, description: 'Ids of the prompts not answered yet (optional ones only, when awaiting verification)' },
            awaitingVerification: {
              type: 'boolean',
              description: 'True for a VERIFICATION form whose required prompts are all answered but which is not verified yet: what is left is its verification (GraphQL verifyForm); false for a form still open',
            },
          },
        },
      },
    },
  },
  FormCompletion: {
    type: 'object',
    required: ['form', 'assigned', 'completed', 'incomplete', 'verified', 'prompts'],
    properties: {
      form: { type: 'string' },
      assigned: { type: 'integer', description: 'Assets holding the form' },
      completed: { type: 'integer', description: 'Assets whose required prompts are all answered' },
      incomplete: { type: 'integer' },
      verified: { type: 'integer', description: 'VERIFICATION forms: completed assets that were verified' },
      prompts: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'title', 'required', 'completed', 'incomplete'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            required: { type: 'boolean' },
            completed: { type: 'integer', description: 'Assets holding the form whose answer to this prompt is given' },
            incomplete: { type: 'integer' },
          },
        },
      },
    },
  },
};
