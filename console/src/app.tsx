import type { FunctionComponent } from 'preact';
import { useEffect } from 'preact/hooks';
import { api } from './api';
import Activity from './pages/activity';
import Entity from './pages/entity';
import Form from './pages/form';
import Forms from './pages/forms';
import GraphQL from './pages/graphql';
import Properties from './pages/properties';
import Search from './pages/search';
import SignIn from './pages/sign-in';
import Tests from './pages/tests';
import ToDo from './pages/todo';
import Tokens from './pages/tokens';
import { here, href, navigate, signInHash, useRoute, type Route } from './router';
import { expireSession, isAdmin, setSession, useSession, type Session } from './session';

interface View {
  path: string;
  title: string;
  page: FunctionComponent<{ route: Route; session: Session }>;
  /** Shown in the navigation (the entity page is reached from search). */
  nav: boolean;
  adminOnly?: boolean;
}

const VIEWS: View[] = [
  { path: '/search', title: 'Search', page: Search, nav: true },
  { path: '/entity', title: 'Entity', page: Entity, nav: false },
  { path: '/todo', title: 'To do', page: ToDo, nav: true },
  { path: '/forms', title: 'Forms', page: Forms, nav: true },
  { path: '/form', title: 'Form', page: Form, nav: false },
  { path: '/properties', title: 'Structured properties', page: Properties, nav: true },
  { path: '/tests', title: 'Metadata tests', page: Tests, nav: true },
  { path: '/tokens', title: 'Tokens', page: Tokens, nav: true, adminOnly: true },
  { path: '/activity', title: 'Activity', page: Activity, nav: true },
  { path: '/graphql', title: 'GraphQL', page: GraphQL, nav: true },
];

export function App() {
  const route = useRoute();
  const session = useSession();
  const view = VIEWS.find((v) => v.path === route.path);

  useEffect(() => {
    if (!session && route.path !== '/sign-in') navigate(signInHash(here()), true);
  }, [session, route.path]);
  useEffect(() => {
    document.title = `${view?.title ?? 'Sign in'} · urnbase`;
  }, [view]);
  // A token revoked or expired since sign-in is found out at once, whatever the page shows.
  useEffect(() => {
    if (session) void api('GET', '/openapi/v2/auth/me', { accept: [401] }).then((res) => res.status === 401 && expireSession());
  }, [session?.token]);

  if (!session || route.path === '/sign-in') return <SignIn next={route.params.get('next') ?? undefined} expired={route.params.get('reason') === 'expired'} />;
  const Page = !view ? NotFound : view.adminOnly && !isAdmin(session) ? AdminsOnly : view.page;
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href('/search')}>
          urnbase
        </a>
        <nav aria-label="Main">
          <ul>
            {VIEWS.filter((v) => v.nav && (!v.adminOnly || isAdmin(session))).map((v) => (
              <li key={v.path}>
                <a href={href(v.path)} aria-current={v.path === route.path ? 'page' : undefined}>
                  {v.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span title={session.actor}>
            {session.actor.replace('urn:li:corpuser:', '')} ({session.role})
          </span>
          <button type="button" class="link" onClick={() => setSession(undefined)}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} session={session} />
      </main>
    </>
  );
}

/** A page of admins' (Tokens) opened by a viewer or an editor, from a link or a bookmark. */
function AdminsOnly({ route, session }: { route: Route; session: Session }) {
  const title = VIEWS.find((v) => v.path === route.path)?.title ?? route.path;
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">
        {title} are for admins only: you are signed in as {session.actor.replace('urn:li:corpuser:', '')}, with the {session.role} role.{' '}
        <a href={href('/search')}>Search the catalog</a>.
      </p>
    </>
  );
}

function NotFound({ route }: { route: Route }) {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no page {route.path}. <a href={href('/search')}>Search the catalog</a>.
      </p>
    </>
  );
}
