import { useEffect } from 'preact/hooks';

/** GraphiQL's own page (console/graphiql/, React's), in the same tab: it shares the session. */
export const GRAPHIQL_PAGE = '/graphiql/';

/**
 * `#/graphql`: the navigation's way to GraphiQL, and where sign-in returns to after GraphiQL sent a
 * tab without a session there. Replaced rather than pushed, so that Back leaves GraphiQL.
 */
export default function GraphQL() {
  useEffect(() => location.replace(GRAPHIQL_PAGE), []);
  return (
    <p>
      Opening <a href={GRAPHIQL_PAGE}>GraphiQL</a>…
    </p>
  );
}
