import type { Route } from '../router';
import type { Session } from '../session';

// Being built (see the console issue); replaced before it is merged.
export default function Page(_: { route: Route; session: Session }) {
  return <h1>entity</h1>;
}
