import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { getSession, setSession } from '../session';
import { sessionFetcher } from './fetcher';
import './graphiql.css';

/**
 * GraphiQL (React, bundled here: the page loads nothing from elsewhere) at /graphiql/, with the
 * console's session. Without a session it sends the tab to the console's sign-in, which comes
 * back here (the console's #/graphql view); it never calls /api/graphql without a token.
 */
const SIGN_IN = `/#/sign-in?next=${encodeURIComponent('/graphql')}`;

const DEFAULT_QUERY = `# urnbase's GraphQL API (DataHub's).
# Ctrl-Enter runs the query as you.
{
  searchAcrossEntities(input: { query: "*", count: 10 }) {
    total
    searchResults {
      entity {
        urn
        type
      }
    }
  }
}
`;

/**
 * CodeMirror's hidden textareas (what a screen reader meets in each editor) carry no label in
 * GraphiQL 4: each takes its editor's (the section's, e.g. "Query Editor"), as editors appear.
 */
function labelEditors(root: HTMLElement): void {
  const label = () => {
    for (const area of root.querySelectorAll<HTMLTextAreaElement>('.CodeMirror textarea:not([aria-label])')) {
      const name = area.closest('[aria-label]')?.getAttribute('aria-label');
      if (name) area.setAttribute('aria-label', name);
    }
  };
  new MutationObserver(label).observe(root, { childList: true, subtree: true });
}

const session = getSession();
if (!session) {
  location.replace(SIGN_IN);
} else {
  // The server refused the session's token: sign-in says why (the console's expireSession, for this page).
  const expired = () => {
    setSession(undefined);
    location.replace(`${SIGN_IN}&reason=expired`);
  };
  const fetcher = sessionFetcher(session, expired);
  const who = session.actor.replace('urn:li:corpuser:', '');
  const root = document.getElementById('graphiql')!;
  labelEditors(root);
  createRoot(root).render(
    h(
      GraphiQL,
      { fetcher, defaultQuery: DEFAULT_QUERY, isHeadersEditorEnabled: false, shouldPersistHeaders: false },
      h(
        GraphiQL.Logo,
        null,
        h('a', { href: '/#/search', className: 'urnbase-home', title: 'Back to the console' }, 'urnbase'),
        h('span', { className: 'urnbase-who' }, ` ${who} (${session.role})`),
      ),
    ),
  );
}
