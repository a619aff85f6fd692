import { InputError } from '../errors';

/**
 * What the tag editor accepts: a tag name (`pii`) or a tag URN (`urn:li:tag:pii`). DataHub keeps a
 * tag's name in its URN, where `(`, `)` and `,` are reserved (they delimit tuple URNs) and
 * whitespace splits search terms; markup and quotes have no place in a name either. Any other
 * entity's URN (`urn:li:corpuser:jdoe`) is a mistake, not a tag called that.
 */
/** What other URNs name, for the message (`urn:li:corpuser:jdoe names a user`). */
const KINDS: Record<string, string> = { corpuser: 'a user', corpGroup: 'a group', glossaryTerm: 'a glossary term', glossaryNode: 'a glossary node', domain: 'a domain', dataset: 'a dataset' };

const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.:@/+-]*$/u;
const MAX = 256;

/** The tag URN the text names, or an InputError (field `tag`) saying why it names none. */
export function tagUrnOf(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new InputError('tag', 'Give a tag name, such as pii, or a tag URN, such as urn:li:tag:pii.');
  const other = /^urn:li:([A-Za-z][A-Za-z0-9_]*):/.exec(trimmed);
  if (other && other[1] !== 'tag') {
    throw new InputError('tag', `${trimmed} names ${KINDS[other[1]] ?? `a ${other[1]}`}, not a tag. Give a tag name, such as pii, or a tag URN, such as urn:li:tag:pii.`);
  }
  const name = other ? trimmed.slice('urn:li:tag:'.length) : trimmed;
  if (name === '') throw new InputError('tag', 'urn:li:tag: needs a name after it, such as urn:li:tag:pii.');
  if (name.length > MAX) throw new InputError('tag', `A tag name is at most ${MAX} characters; this one has ${name.length}.`);
  if (!NAME.test(name)) {
    throw new InputError('tag', `"${name}" is not a tag name: use letters, digits and . _ - : @ / + only, with no spaces, brackets, commas or markup, starting with a letter, digit or _.`);
  }
  return `urn:li:tag:${name}`;
}
