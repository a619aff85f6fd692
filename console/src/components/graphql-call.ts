import { api, ApiError } from '../api';

/**
 * A GraphQL mutation as DataHub's own UI sends it (POST /api/graphql), its first error turned into
 * an ApiError like any REST refusal: its code is the status a REST route would answer.
 */
interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: number } }>;
}

const REFUSALS = [400, 403, 404, 409, 412, 413, 429, 500, 503];

export async function mutate(query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { status, body } = await api<GraphQLAnswer>('POST', '/api/graphql', { body: { query, variables }, accept: REFUSALS });
  const first = body?.errors?.[0];
  if (first) throw new ApiError(typeof first.extensions?.code === 'number' ? first.extensions.code : status, first.message, body);
  if (status >= 400) throw new ApiError(status, `The server answered ${status}`, body);
  return body?.data ?? {};
}
