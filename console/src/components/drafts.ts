import { getSession } from '../session';

/**
 * Unsaved edits of the entity page, kept in sessionStorage by the signed-in actor, URN and field,
 * so that a bounce to sign-in (a token revoked mid-edit) and back does not lose them. Written on
 * every change, read when an editor opens, removed on save or cancel; the tab's sessionStorage
 * ends with the tab. By actor: the tab may next be signed in by someone else, who must not be
 * handed another person's unsaved text (nor save it as theirs); the same person gets it back.
 */
const key = (urn: string, field: string) => `urnbase.draft ${getSession()?.actor ?? ''} ${urn} ${field}`;

export function readDraft<T>(urn: string, field: string): T | undefined {
  try {
    const text = sessionStorage.getItem(key(urn, field));
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

export function keepDraft(urn: string, field: string, value: unknown): void {
  try {
    sessionStorage.setItem(key(urn, field), JSON.stringify(value));
  } catch {
    // Storage full or refused: the draft lives on in the form only.
  }
}

export function dropDraft(urn: string, field: string): void {
  try {
    sessionStorage.removeItem(key(urn, field));
  } catch {
    // Nothing to do.
  }
}
