import { useEffect, useState } from 'preact/hooks';
import { api, enc } from '../api';

/**
 * The aspects an entity type may hold (GET /openapi/v2/entity-types/{type}, from the server's
 * registry), so that the entity page offers only the edits the type takes: a user has no domain,
 * a domain no tags. Asked once per type and page load. `undefined` while asked; `null` when the
 * answer did not come, and the page offers every editor (the server still refuses what is wrong).
 */
const asked = new Map<string, Promise<ReadonlySet<string>>>();

export function useTypeAspects(type: string): ReadonlySet<string> | null | undefined {
  const [aspects, setAspects] = useState<{ type: string; aspects: ReadonlySet<string> | null }>();
  useEffect(() => {
    let answer = asked.get(type);
    if (!answer) {
      answer = api<{ aspects: string[] }>('GET', `/openapi/v2/entity-types/${enc(type)}`).then(({ body }) => new Set(body.aspects));
      asked.set(type, answer);
      answer.catch(() => asked.delete(type));
    }
    let current = true;
    answer.then(
      (found) => current && setAspects({ type, aspects: found }),
      () => current && setAspects({ type, aspects: null }),
    );
    return () => void (current = false);
  }, [type]);
  return aspects?.type === type ? aspects.aspects : undefined;
}

/**
 * The types GraphQL's updateDescription writes a description for (its PLACES, in
 * src/api/graphql/resolvers/mutations-description.ts); other types refuse it.
 */
const DESCRIBED = new Set(['dataset', 'chart', 'dashboard', 'dataJob', 'dataFlow', 'container', 'notebook', 'mlModel', 'mlModelGroup', 'mlFeature', 'mlFeatureTable', 'mlPrimaryKey', 'corpGroup', 'domain', 'tag', 'glossaryTerm', 'glossaryNode', 'dataProduct']);

export const describable = (type: string) => DESCRIBED.has(type);
