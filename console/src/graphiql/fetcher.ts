import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import type { Session } from '../session';

export const GRAPHQL_PATH = '/api/graphql';

/**
 * GraphiQL's fetcher: a plain POST to urnbase's endpoint with the session's token, so
 * introspection (the docs, autocompletion) and every query run as the signed-in principal. The
 * token goes in no editor: GraphiQL keeps its headers editor in localStorage when asked to.
 */
export function sessionFetcher(session: Session, onUnauthorized: () => void): Fetcher {
  return createGraphiQLFetcher({
    url: GRAPHQL_PATH,
    headers: { authorization: `Bearer ${session.token}` },
    enableIncrementalDelivery: false,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      // Revoked or expired since sign-in: end the session, as the console does.
      if (res.status === 401) onUnauthorized();
      return res;
    },
  });
}
