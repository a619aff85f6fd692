/**
 * The server's refusals in plain words. The server speaks DataHub's messages (`Property: urn:…,
 * value: {string=abc} should be a number (a "double" member)`), which clients match on and which
 * must stay as they are; people get a sentence instead, and the form the field at fault, so that
 * it can mark that input. A message not known here is passed on as it came: a guessed sentence
 * would say less than the server's own.
 */
export interface Explained {
  /** What went wrong and what to do, in a sentence or two. */
  text: string;
  /**
   * The field at fault: a structured property's URN; `tag`, `owner`, `term`, `domain` for the
   * entity page's editors; a definition's field name (`qualifiedName`, `version`, …); `urn` for
   * the name of something to be created that exists already.
   */
  field?: string;
  /** False when nothing here knew the message, and `text` is the server's own. */
  recognised: boolean;
}

/** Status 0: the request never got an answer (server down, network gone). */
export const NO_ANSWER = 0;

const name = (urn: string) => urn.replace(/^urn:li:[^:]+:/, '');

/** `{string=abc}` / `{double=30}` → `"abc"` / `30`. */
const shown = (pegasus: string) => {
  const m = /^\{(string|double)=([\s\S]*)\}$/.exec(pegasus.trim());
  if (!m) return pegasus;
  return m[1] === 'double' ? m[2] : `"${m[2]}"`;
};
const list = (items: string) =>
  items
    .split(/,\s*(?=\{)/)
    .map(shown)
    .join(', ');

type Rule = [RegExp, (m: RegExpExecArray) => { text: string; field?: string }];

/** Structured-property validation (src/structured), the messages DataHub writes. */
const PROPERTY_RULES: Rule[] = [
  [/^Property: (\S+), value: (\{[\s\S]*\}) should be a number/, (m) => ({ field: m[1], text: `${shown(m[2])} is not a number. ${name(m[1])} takes a number, such as 42 or 0.5.` })],
  [/^Property: (\S+), value: (\{[\s\S]*\}) should be a date/, (m) => ({ field: m[1], text: `${shown(m[2])} is not a date. ${name(m[1])} takes a date, written YYYY-MM-DD.` })],
  [/^Property: (\S+), value: (\{[\s\S]*\}) should be an urn/, (m) => ({ field: m[1], text: `${shown(m[2])} is not a URN. ${name(m[1])} takes an entity's URN, such as urn:li:corpuser:jdoe.` })],
  [
    /^Property: (\S+), value: (\{[\s\S]*\}) is not of any supported urn types:\[(.*)\]$/,
    (m) => ({ field: m[1], text: `${shown(m[2])} is not of a type ${name(m[1])} accepts. It takes only: ${m[3].split(/,\s*/).map(name).map((t) => t.replace(/^datahub\./, '')).join(', ')}.` }),
  ],
  [/^Property: (\S+), value: (\{[\s\S]*\}) should be one of \[(.*)\]$/, (m) => ({ field: m[1], text: `${shown(m[2])} is not one of the values ${name(m[1])} allows: ${list(m[3])}.` })],
  [/^Property: (\S+) has cardinality 1, but multiple values were assigned/, (m) => ({ field: m[1], text: `${name(m[1])} takes one value only. Keep one and remove the others.` })],
  [/^Property: (\S+), value is (\d+) bytes which exceeds the maximum of (\d+)/, (m) => ({ field: m[1], text: `The value of ${name(m[1])} is too long: ${m[2]} bytes, at most ${m[3]}.` })],
  [/^Property: (\S+) cannot be applied to entity type (\S+);/, (m) => ({ field: m[1], text: `${name(m[1])} does not apply to ${m[2]} entities.` })],
  [/^Structured Property (\S+) does not exist/, (m) => ({ field: m[1], text: `The property ${name(m[1])} does not exist (any more). Reload the page to see the current properties.` })],
  [/^Cannot apply a soft deleted Structured Property value: (\S+)/, (m) => ({ field: m[1], text: `The property ${name(m[1])} is retired (soft deleted): it takes no new values.` })],
  [/^Cannot mutate an immutable property: (\S+)/, (m) => ({ field: m[1], text: `${name(m[1])} is immutable: once set, its values cannot change.` })],
  [/^Cannot delete an immutable property: (\S+)/, (m) => ({ field: m[1], text: `${name(m[1])} is immutable: once set, its values cannot be removed.` })],
];

const typeOf = (urn: string) => urn.replace(/^urn:li:dataType:(datahub\.)?/, '');
const raise = 'To make this breaking change, raise the version (yyyyMMddHHmmss, e.g. with "Use the current time").';

/** Property definitions (src/structured/definitions.ts), with the form's field at fault. */
const DEFINITION_RULES: Rule[] = [
  [/^(?:Urn ID|Qualified names) cannot have spaces/, () => ({ field: 'qualifiedName', text: 'A qualified name has no spaces: use dots, e.g. com.example.retentionTime.' })],
  [/^Invalid version specified/, () => ({ field: 'version', text: 'A version is 14 digits, yyyyMMddHHmmss, e.g. 20240501120000.' })],
  [/^Property \S+: entityTypes must name at least one/, () => ({ field: 'entityTypes', text: 'Tick at least one entity type the property may be used on.' })],
  [/^Property \S+: allowed value (\{[\s\S]*\}) must be a (double|string)/, (m) => ({ field: 'allowedValues', text: `The allowed value ${shown(m[1])} is not ${m[2] === 'double' ? 'a number' : 'text'}, as the value type asks.` })],
  [/^Property \S+: allowed value (\{[\s\S]*\}) is listed more than once/, (m) => ({ field: 'allowedValues', text: `The allowed value ${shown(m[1])} is listed more than once.` })],
  [/^Value type of (\S+) cannot be changed from (\S+) to (\S+): /, (m) => ({ field: 'valueType', text: `The value type of ${name(m[1])} cannot change from ${typeOf(m[2])} to ${typeOf(m[3])} as it is. ${raise}` })],
  [/^Cardinality of (\S+) cannot be changed from MULTIPLE to SINGLE/, (m) => ({ field: 'cardinality', text: `${name(m[1])} cannot go from several values to one as it is. ${raise}` })],
  [/^Cannot restrict values that were previously allowed: (\S+) had no allowedValues/, (m) => ({ field: 'allowedValues', text: `${name(m[1])} allowed any value until now; listing allowed values narrows it. ${raise}` })],
  [/^Cannot restrict values that were previously allowed: (\S+) no longer allows (\{[\s\S]*\});/, (m) => ({ field: 'allowedValues', text: `Removing the allowed value ${shown(m[2])} of ${name(m[1])} narrows it. ${raise}` })],
  [/^Cannot remove entity type (\S+) from (\S+): /, (m) => ({ field: 'entityTypes', text: `Removing the entity type ${typeOf(m[1]).replace(/^urn:li:entityType:(datahub\.)?/, '')} from ${name(m[2])} narrows it. ${raise}` })],
  [/^Cannot mutate a soft deleted Structured Property Definition: (\S+)/, (m) => ({ text: `${name(m[1])} is soft deleted: restore it before editing it.` })],
];

/** What the entity page's editors write (aspects by the registry, GraphQL mutations). */
const EDIT_RULES: Rule[] = [
  [/^Aspect globalTags is invalid: field tags\[\d+\]\.tag must be a URN of type tag/, () => ({ field: 'tag', text: 'That is not a tag. Give a tag name, such as pii, or a tag URN, such as urn:li:tag:pii.' })],
  [/Expected a corp (user|group) urn, found (\S+?)\.?$/, (m) => ({ field: 'owner', text: `${m[2]} is not a ${m[1] === 'user' ? 'user' : 'group'}. Pick the owner from the list.` })],
  [/Owner with urn (\S+) does not exist/, (m) => ({ field: 'owner', text: `There is no user or group ${m[1]} in the catalog. Pick the owner from the list.` })],
  [/Custom Ownership type with urn (\S+) does not exist/, (m) => ({ field: 'owner', text: `There is no ownership type ${name(m[1])} in the catalog.` })],
  [/^Failed to validate label with urn (urn:li:glossaryTerm:\S+)\. Urn does not exist/, (m) => ({ field: 'term', text: `There is no glossary term ${name(m[1])} in the catalog. Pick one from the list.` })],
  [/^Failed to validate label with urn (\S+)\. Urn type does not match/, (m) => ({ field: 'term', text: `${m[1]} is not a glossary term. Pick one from the list.` })],
  [/^Failed to add Entity \S+ to Domain (\S+)\. Domain does not exist/, (m) => ({ field: 'domain', text: `There is no domain ${m[1]} in the catalog. Pick one from the list.` })],
  [/^Failed to validate Domain with urn (\S+)\. Urn does not exist/, (m) => ({ field: 'domain', text: `There is no domain ${m[1]} in the catalog. Pick one from the list.` })],
  [/^Failed to [^.]*?(urn:li:\S+?)\.? (?:[^.]*\. )?(?:Entity|Resource|\1) does not exist/, (m) => ({ text: `There is no entity ${m[1]} in the catalog: it may have been deleted. Reload the page.` })],
  [/^Entity (\S+) (?:not found|does not exist)/, (m) => ({ text: `There is no entity ${m[1]} in the catalog.` })],
  [/^Cannot perform CREATE since the aspect \S+ of (\S+) already exists/, (m) => ({ field: 'urn', text: `${m[1]} already exists: pick another name, or edit the existing one.` })],
  [/^Expected version (\S+), actual version (\S+) for aspect (\S+) of/, (m) => ({ text: `Someone else changed ${m[3]} since you loaded it (version ${m[1]} then, ${m[2]} now), so your change was not saved. Reload, then edit again.` })],
];

/** Answering and verifying forms (src/forms/service.ts, src/forms/compute.ts). */
const FORM_RULES: Rule[] = [
  [
    /^Cannot verify form \S+ on \S+: its required prompts are not all answered yet/,
    () => ({ text: 'Not verified: a required prompt of this form is no longer answered on this asset (someone may have removed an answer since the page was read). Reload, answer it, then verify.' }),
  ],
  [/^Cannot verify form \S+ on \S+: it is a COMPLETION form/, () => ({ text: 'This form has no verification step: it is done once its required prompts are answered.' })],
  [/^(?:Cannot verify form \S+ on \S+: the form is not assigned to it|Form \S+ is not assigned to \S+$)/, () => ({ text: 'This form is no longer assigned to this asset: there is nothing left to answer or verify. Reload the page.' })],
  [/^\S+ is not asked to fill in form \S+ on \S+:/, () => ({ text: "You are not among the people this form asks on this asset: only its actors (and the asset's owners, where the form asks owners) answer and verify it." })],
  [/^Form \S+ does not exist$/, () => ({ text: 'This form no longer exists. Reload the page.' })],
];

/** Tokens (src/auth/tokens.ts). */
const TOKEN_RULES: Rule[] = [
  [/^Invalid, expired or revoked token/, () => ({ text: 'The server does not accept this token: it is mistyped, expired or revoked. Check it, or ask an admin for a new one.' })],
  [/^name must be 1 to 100 letters, digits/, () => ({ field: 'name', text: 'A token name is 1 to 100 letters, digits, ".", "_", "@" or "-", with no spaces: e.g. ci-loader.' })],
];

/** The activity feed's filters (src/events/change-log.ts). */
const ACTIVITY_RULES: Rule[] = [
  [/^entityType: unknown entity type ("[^"]*")/, (m) => ({ field: 'entityType', text: `There is no entity type ${m[1]}. Give one such as dataset, chart or corpuser.` })],
  [/^aspect: no entity type has an aspect ("[^"]*")/, (m) => ({ field: 'aspect', text: `No entity type has an aspect ${m[1]}. Give one such as globalTags, ownership or datasetProperties.` })],
  [/^actor: expected the actor's URN \(.*\), got ("[^"]*")/, (m) => ({ field: 'actor', text: `${m[1]} is not an actor's URN. Give a user name, such as jdoe, or a URN, such as urn:li:corpuser:jdoe.` })],
];

/**
 * Metadata-test definitions (src/metatests): the field is the message's own path (`rules[1].value`),
 * which the test editor uses to mark the condition at fault.
 */
const PATH = String.raw`((?:rules|on)(?:\.[a-z]+|\[\d+\])*)`;
const rule = (tail: string) => new RegExp(`^${PATH}${tail}`);
const METATEST_RULES: Rule[] = [
  [rule(String.raw`\.value: invalid regular expression ("(?:[^"\\]|\\.)*"): (?:error parsing regexp: )?(.*)$`), (m) => ({ field: `${m[1]}.value`, text: `${m[2]} is not a valid regular expression (${m[3]}). Check its brackets and escapes.` })],
  [rule(String.raw`\.value: values must be numbers, ISO dates or epoch milliseconds`), (m) => ({ field: `${m[1]}.value`, text: 'Compare with a number, a date such as 2024-05-01, or epoch milliseconds.' })],
  [rule(String.raw`\.property: ("[^"]*") is not a property of ([^:]+): (.*)$`), (m) => ({ field: `${m[1]}.property`, text: `${m[2]} is not a property of ${m[3]} (${m[4]}). Pick a property from the suggestions.` })],
  [rule(String.raw`\.property: ("[^"]*") follows lineage more than once`), (m) => ({ field: `${m[1]}.property`, text: `${m[2]} follows lineage more than once: a property may take one lineage step.` })],
  [rule(String.raw`\.property: expected a property path`), (m) => ({ field: `${m[1]}.property`, text: 'Give the property this condition checks, e.g. datasetProperties.description.' })],
  [rule(String.raw`\.property: schema_fields_have_descriptions applies to the property schemaFields only`), (m) => ({ field: `${m[1]}.property`, text: 'Checking that schema fields all have descriptions applies to the property schemaFields only.' })],
  [rule(String.raw`\.operator: unknown operator ("[^"]*")`), (m) => ({ field: `${m[1]}.operator`, text: `${m[2]} is not an operator. Pick one from the list.` })],
  [rule(String.raw`\.operator: expected an operator`), (m) => ({ field: `${m[1]}.operator`, text: 'Pick the operator of this condition.' })],
  [rule(String.raw`: operator \S+ needs a value`), (m) => ({ field: m[1], text: 'This condition compares with a value: give one.' })],
  [rule(String.raw`: operator \S+ takes no value`), (m) => ({ field: m[1], text: 'This condition takes no value: remove it.' })],
  [rule(String.raw`: predicates nest deeper than (\d+) levels`), (m) => ({ field: m[1], text: `Groups nest too deep: at most ${m[2]} levels.` })],
  [/^definition: invalid JSON: (.*)$/, (m) => ({ text: `The definition is not valid JSON (${m[1]}).` })],
  [/^on\.types: must be a non-empty list/, () => ({ field: 'on.types', text: 'Tick at least one entity type the test applies to.' })],
  [/^on\.types(\[\d+\]): unknown entity type ("[^"]*")/, (m) => ({ field: `on.types${m[1]}`, text: `There is no entity type ${m[2]}.` })],
  [/^on\.types(\[\d+\]): entity type ("[^"]*") cannot hold testResults/, (m) => ({ field: `on.types${m[1]}`, text: `Tests cannot apply to ${m[2]} entities: they hold no test results.` })],
];

/** What a status alone says, when the message itself adds nothing a person can act on. */
function byStatus(status: number, message: string): string | undefined {
  if (status === NO_ANSWER) return 'The server could not be reached: it may be stopped, or the network is down. Nothing was saved; try again once it is back.';
  if (status === 403) {
    const op = /^\S+ is unauthorized to (.+?)\.?$/.exec(message)?.[1];
    // Other refusals (a built-in entity, an admin-only delete) already say why in words.
    return op ? `Your token may not ${op}: its role does not allow it. Ask an admin for an editor token.` : undefined;
  }
  if (status === 413) return 'That is too large for the server to accept. Make it smaller and try again.';
  if (status === 429) return 'The server is busy. Wait a moment and try again.';
  if (status === 503) return 'The server is unavailable for the moment (its store is unreachable, or it is stopping). Nothing was changed; try again shortly.';
  if (status >= 500) return `The server failed (${status}) and nothing was changed. Try again; if it keeps failing, the server's log says why.`;
  return undefined;
}

/** The refusal `status: message` in words, with the field at fault when the message names one. */
export function explain(status: number, message: string): Explained {
  for (const [pattern, say] of [...PROPERTY_RULES, ...DEFINITION_RULES, ...EDIT_RULES, ...FORM_RULES, ...TOKEN_RULES, ...ACTIVITY_RULES, ...METATEST_RULES]) {
    const m = pattern.exec(message);
    if (m) return { ...say(m), recognised: true };
  }
  const text = byStatus(status, message);
  return text ? { text, recognised: true } : { text: message, recognised: false };
}

/** A value the form refuses before anything is sent, naming the field at fault. */
export class InputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The field a refusal or a form's own check names, if any. */
export function faultyField(error: unknown): string | undefined {
  if (error instanceof InputError) return error.field;
  const field = (error as { field?: unknown } | undefined)?.field;
  return typeof field === 'string' ? field : undefined;
}
