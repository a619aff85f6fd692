import { useEffect, useState } from 'preact/hooks';
import { api, V3 } from '../api';
import { NAME_ASPECTS, nameOf, type EntityV3 } from '../pages/entity-info';

/**
 * A URN field with type-ahead: what is typed is searched among the entities of the given types
 * (the search API, as the search page asks it), and the matches are offered as the input's
 * suggestions (a `<datalist>`: the browser's own, keyboard and screen-reader friendly), each
 * with its name. The value is what is typed or picked: a URN.
 */
const SUGGESTIONS = 8;
const PAUSE_MS = 200;

export interface Suggestion {
  urn: string;
  name: string;
}

export async function findEntities(text: string, types: string[], signal?: AbortSignal, count = SUGGESTIONS): Promise<Suggestion[]> {
  const query = new URLSearchParams({ count: String(count) });
  const words = text.trim();
  if (words) query.set('query', words);
  const { body } = await api<{ entities: EntityV3[] }>('POST', `${V3}/scroll?${query}`, {
    body: { ...(types.length > 0 ? { entities: types } : {}), aspects: NAME_ASPECTS },
    signal,
  });
  return body.entities.map((e) => ({ urn: e.urn, name: nameOf(e) }));
}

export function UrnPicker(props: {
  id: string;
  value: string;
  onValue: (urn: string) => void;
  /** Entity types searched (`corpuser`, `glossaryTerm`); all when empty. */
  types: string[];
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
  required?: boolean;
}) {
  const [found, setFound] = useState<Suggestion[]>([]);
  const typed = props.value;
  useEffect(() => {
    // A URN already complete needs no search; anything else is looked up once typing pauses.
    if (/^urn:li:[^:]+:.+/.test(typed) && found.some((f) => f.urn === typed)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      findEntities(typed.replace(/^urn:li:[^:]*:?/, ''), props.types, controller.signal).then(setFound, () => undefined);
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [typed, props.types.join(' ')]);
  const listId = `${props.id}-suggestions`;
  return (
    <>
      <input
        id={props.id}
        type="text"
        list={listId}
        autocomplete="off"
        value={props.value}
        placeholder={props.placeholder}
        required={props.required}
        aria-invalid={props.invalid ? 'true' : undefined}
        aria-describedby={props.describedBy}
        onInput={(e) => props.onValue((e.target as HTMLInputElement).value)}
      />
      <datalist id={listId}>
        {found.map((f) => (
          <option key={f.urn} value={f.urn} label={f.name}>
            {f.name}
          </option>
        ))}
      </datalist>
    </>
  );
}
