import { useState } from 'preact/hooks';
import { api, enc, V2 } from '../api';
import { faultyField } from '../errors';
import { href } from '../router';
import { canWrite } from '../session';
import { ErrorMessage, shortUrn } from './common';
import type { EditingProps } from './entity-editing';
import { pointerSegment } from './property-model';
import { tagUrnOf } from './tag-name';
import { UrnPicker } from './urn-picker';
import { useWrite } from './use-write';

/**
 * An entity's tags, listed once: for editors and admins each with its remove button, and a field
 * to add one by name or URN, suggesting the catalog's tags as it is typed. Writes are JSON patches on `globalTags` addressing tags by key, so that concurrent
 * edits of other tags are kept.
 */
export function Tags({ urn, entityType, session, onChanged, tags }: EditingProps & { tags: string[] }) {
  const [text, setText] = useState('');
  const { busy, error, setError, done, setDone, run } = useWrite(onChanged);
  const writer = canWrite(session);
  const id = `te-${shortUrn(urn).replace(/[^A-Za-z0-9_-]/g, '_')}`;

  const patch = (operations: unknown[], message: string) =>
    run(
      () =>
        api('PATCH', `${V2}/${entityType}/${enc(urn)}/globalTags`, {
          body: { patch: operations, arrayPrimaryKeys: { tags: ['tag'] } },
          contentType: 'application/json-patch+json',
        }),
      message,
    );

  const add = async (event: Event) => {
    event.preventDefault();
    setDone('');
    let tag: string;
    try {
      tag = tagUrnOf(text);
    } catch (e) {
      setError(e);
      return;
    }
    if (await patch([{ op: 'add', path: `/tags/${pointerSegment(tag)}`, value: { tag } }], `Added the tag ${shortUrn(tag)}.`)) setText('');
  };

  const invalid = faultyField(error) === 'tag';
  return (
    <>
      {tags.length === 0 ? (
        <p class="muted">No tags.</p>
      ) : (
        <ul class="chips" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag} class="chip" title={tag}>
              <a href={href('/entity', { urn: tag })}>{shortUrn(tag)}</a>
              {writer && (
                <button
                  type="button"
                  class="link chip-remove"
                  disabled={busy}
                  aria-label={`Remove tag ${shortUrn(tag)}`}
                  onClick={() => void patch([{ op: 'remove', path: `/tags/${pointerSegment(tag)}` }], `Removed the tag ${shortUrn(tag)}.`)}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {writer && (
        <form onSubmit={add} class="row tag-add" noValidate>
          <label for={`${id}-add`}>Add a tag</label>
          <UrnPicker
            id={`${id}-add`}
            value={text}
            onValue={setText}
            types={['tag']}
            placeholder="pii or urn:li:tag:pii"
            invalid={invalid}
            describedBy={invalid ? `${id}-error` : undefined}
          />
          <button type="submit" disabled={busy || text === ''}>
            Add tag
          </button>
        </form>
      )}
      <ErrorMessage error={error} id={`${id}-error`} />
      {done && (
        <p class="ok" role="status">
          {done}
        </p>
      )}
    </>
  );
}
