import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { loadDefinitions } from './search-properties';
import {
  childPath,
  conditionPath,
  messageAt,
  newGroup,
  newLeaf,
  parseStructured,
  Unrepresentable,
  writeStructured,
  type Condition,
  type Group,
  type Leaf,
  type Structured,
} from './tests-definition';
import { scopeTypes } from './tests-model';

/** What the server says a definition may use (POST /gms/test?action=vocabulary). */
interface Vocabulary {
  entityTypes: string[];
  properties: string[];
  operators: Array<{ name: string; binary: boolean }>;
}

/** Operators in words; an operator the server adds later shows by its name. */
const OPERATOR_WORDS: Record<string, string> = {
  equals: 'equals',
  contains_any: 'contains any of',
  contains_str: 'contains the text',
  starts_with: 'starts with',
  regex_match: 'matches the pattern',
  greater_than: 'is greater than',
  less_than: 'is less than',
  exists: 'exists',
  is_true: 'is true',
  is_false: 'is false',
  schema_fields_have_descriptions: 'schema fields all have descriptions',
};

const GROUP_WORDS = [
  { value: 'and', label: 'All of these hold' },
  { value: 'or', label: 'Any of these holds' },
  { value: 'not-and', label: 'Not all of these hold' },
  { value: 'not-or', label: 'None of these holds' },
];

interface EditorProps {
  json: string;
  onChange: (json: string) => void;
  readOnly: boolean;
  /** The server's last refusal of this definition: shown next to the condition it names. */
  refusal: string | undefined;
}

/** A definition, edited as conditions (entity types, properties, operators, values) or as JSON. */
export function DefinitionEditor({ json, onChange, readOnly, refusal }: EditorProps) {
  const [view, setView] = useState<'conditions' | 'json'>(() => (representable(json) ? 'conditions' : 'json'));
  // Why the conditions view could not show the JSON (when it was asked for, or at the start).
  const [note, setNote] = useState<string | undefined>(() => whyNot(json));
  const vocabulary = useVocabulary(scopeTypes(json));

  const show = (wanted: 'conditions' | 'json') => {
    if (wanted === 'conditions') {
      const why = whyNot(json);
      setNote(why);
      if (why) return;
    } else setNote(undefined);
    setView(wanted);
  };

  let structured: Structured | undefined;
  if (view === 'conditions') {
    try {
      structured = parseStructured(json);
    } catch {
      structured = undefined; // Cannot happen from this view's own edits; the JSON view shows it.
    }
  }

  return (
    <div class="tests-definition-editor">
      <div class="row tests-view" role="group" aria-label="Edit the definition as">
        <span class="tests-view-label" id="tests-definition-label">
          Definition
        </span>
        <button type="button" class={view === 'conditions' ? '' : 'secondary'} aria-pressed={view === 'conditions'} onClick={() => show('conditions')}>
          Conditions
        </button>
        <button type="button" class={view === 'json' ? '' : 'secondary'} aria-pressed={view === 'json'} onClick={() => show('json')}>
          JSON
        </button>
      </div>
      {note && (
        <p class="tests-warning tests-json-note">
          Shown as JSON: {note}
        </p>
      )}
      {view === 'conditions' && structured ? (
        <StructuredEditor structured={structured} onChange={(s) => onChange(writeStructured(s))} readOnly={readOnly} vocabulary={vocabulary} refusal={refusal} />
      ) : (
        <>
          <label for="test-json">Definition (JSON)</label>
          <textarea
            id="test-json"
            class="tests-json"
            value={json}
            spellcheck={false}
            aria-describedby="test-json-help"
            onInput={(e) => onChange((e.target as HTMLTextAreaElement).value)}
            readOnly={readOnly}
          />
          <p class="muted tests-help" id="test-json-help">
            <code>{'{"on": {"types": [...], "conditions"?}, "rules", "actions"?}'}</code> — see the definition language in docs/metadata-tests.md.
          </p>
        </>
      )}
    </div>
  );
}

function whyNot(json: string): string | undefined {
  try {
    parseStructured(json);
    return undefined;
  } catch (error) {
    if (error instanceof Unrepresentable) return error.message;
    throw error;
  }
}

const representable = (json: string) => whyNot(json) === undefined;

/** The server's vocabulary for the types, and the catalog's structured properties as paths. */
function useVocabulary(types: string[]): Vocabulary | undefined {
  const [vocabulary, setVocabulary] = useState<Vocabulary>();
  const [structuredPaths, setStructuredPaths] = useState<string[]>([]);
  const key = [...types].sort().join(',');
  useEffect(() => {
    const stop = new AbortController();
    const body = types.length > 0 ? { types } : {};
    api<{ value: Vocabulary }>('POST', '/gms/test?action=vocabulary', { body, signal: stop.signal })
      .then((res) => setVocabulary(res.body.value))
      .catch(async (error: unknown) => {
        // A type the server refuses: the refusal says so on save; offer what the other types have.
        if (error instanceof ApiError && error.status === 400 && !stop.signal.aborted) {
          const bare = await api<{ value: Vocabulary }>('POST', '/gms/test?action=vocabulary', { body: {}, signal: stop.signal }).catch(() => undefined);
          if (bare) setVocabulary(bare.body.value);
        }
      });
    return () => stop.abort();
  }, [key]);
  useEffect(() => {
    const stop = new AbortController();
    loadDefinitions(stop.signal)
      .then((defs) => setStructuredPaths(defs.map((d) => `structuredProperties.${d.qualifiedName}`)))
      .catch(() => undefined); // Suggestions only: the editor works without them.
    return () => stop.abort();
  }, []);
  return vocabulary && { ...vocabulary, properties: [...vocabulary.properties, ...structuredPaths] };
}

interface StructuredProps {
  structured: Structured;
  onChange: (s: Structured) => void;
  readOnly: boolean;
  vocabulary: Vocabulary | undefined;
  refusal: string | undefined;
}

function StructuredEditor({ structured: s, onChange, readOnly, vocabulary, refusal }: StructuredProps) {
  const known = vocabulary?.entityTypes ?? [];
  // Types the definition names that the server does not offer stay listed, to be unticked.
  const types = [...new Set([...known, ...s.types])];
  const typesRefusal = refusal?.startsWith('on.types') ? refusal : undefined;
  const actions = s.rest.actions;
  return (
    <div class="tests-structured">
      <fieldset class="tests-types" aria-describedby={typesRefusal ? 'tests-types-refusal' : undefined}>
        <legend>Entity types it selects</legend>
        {types.length === 0 && <p class="muted">Loading the entity types…</p>}
        <div class="tests-type-list">
          {types.map((type) => (
            <label key={type} class="tests-inline">
              <input
                type="checkbox"
                checked={s.types.includes(type)}
                disabled={readOnly}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  onChange({ ...s, types: on ? [...s.types, type] : s.types.filter((t) => t !== type) });
                }}
              />
              {type}
            </label>
          ))}
        </div>
        {typesRefusal && (
          <p class="error tests-refusal" id="tests-types-refusal">
            {withoutPath(typesRefusal)}
          </p>
        )}
      </fieldset>
      <datalist id="tests-properties">
        {(vocabulary?.properties ?? []).map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <fieldset class="tests-group-root">
        <legend>Only the entities where (optional)</legend>
        {s.conditions ? (
          <GroupEditor
            group={s.conditions}
            at={conditionPath(s.conditions, 'on.conditions')}
            name="Scope"
            onChange={(g) => onChange({ ...s, conditions: g })}
            onRemove={() => onChange({ ...s, conditions: undefined })}
            readOnly={readOnly}
            vocabulary={vocabulary}
            refusal={refusal}
          />
        ) : (
          <>
            <p class="muted">Every entity of the types above.</p>
            {!readOnly && (
              <button type="button" class="secondary" onClick={() => onChange({ ...s, conditions: newGroup() })}>
                Narrow the scope
              </button>
            )}
          </>
        )}
      </fieldset>
      <fieldset class="tests-group-root">
        <legend>Rules: an entity passes when</legend>
        <GroupEditor group={s.rules} at={conditionPath(s.rules, 'rules')} name="Rule" onChange={(g) => onChange({ ...s, rules: g })} readOnly={readOnly} vocabulary={vocabulary} refusal={refusal} />
      </fieldset>
      {actions !== undefined && (
        <p class="muted tests-help">
          The test also has actions (<code>{Object.keys(actions as object).join(', ') || 'none'}</code>): edit them in the JSON view.
        </p>
      )}
    </div>
  );
}

interface GroupProps {
  group: Group;
  /** Where the group is in the JSON (the server's messages name it so). */
  at: string;
  /** How its conditions are called: `Rule 1`, `Rule 1.2`, `Scope 1`. */
  name: string;
  onChange: (g: Group) => void;
  onRemove?: () => void;
  readOnly: boolean;
  vocabulary: Vocabulary | undefined;
  refusal: string | undefined;
}

function GroupEditor({ group, at, name, onChange, onRemove, readOnly, vocabulary, refusal }: GroupProps) {
  const mode = `${group.negated ? 'not-' : ''}${group.op}`;
  // The roots are called by what they are; nested groups by their number (`Rule 2`).
  const target = name === 'Rule' ? 'the rules' : name === 'Scope' ? 'the scope' : name;
  const own = messageAt(refusal, at);
  const id = `tests-group-${name.replace(/\W+/g, '-')}`;
  const setChild = (i: number, c: Condition | undefined) => {
    const children = c ? group.children.map((old, k) => (k === i ? c : old)) : group.children.filter((_, k) => k !== i);
    onChange({ ...group, children });
  };
  return (
    <div class="tests-group">
      <div class="row tests-group-head">
        <label for={`${id}-mode`} class="tests-sr">
          {target}: how the conditions combine
        </label>
        <select
          id={`${id}-mode`}
          value={mode}
          disabled={readOnly}
          onChange={(e) => {
            const value = (e.target as HTMLSelectElement).value;
            // A bare list is an AND: any other choice writes the group out.
            onChange({ ...group, negated: value.startsWith('not-'), op: value.endsWith('or') ? 'or' : 'and', list: group.list && value === 'and' });
          }}
        >
          {GROUP_WORDS.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </select>
        {onRemove && !readOnly && (
          <button type="button" class="link" onClick={onRemove}>
            Remove {name === 'Scope' ? 'the scope conditions' : name}
          </button>
        )}
      </div>
      {own && (
        <p class="error tests-refusal" role="note">
          {own}
        </p>
      )}
      <ol class="tests-conditions">
        {group.children.map((child, i) => {
          const childAt = childPath(group, at, i);
          const childName = `${name} ${i + 1}`.replace(/^(\w+) (\d+(?:\.\d+)*) (\d+)$/, '$1 $2.$3');
          return (
            <li key={i}>
              {child.kind === 'leaf' ? (
                <LeafEditor leaf={child} at={childAt} name={childName} onChange={(c) => setChild(i, c)} onRemove={() => setChild(i, undefined)} readOnly={readOnly} vocabulary={vocabulary} refusal={refusal} />
              ) : (
                <GroupEditor
                  group={child}
                  at={childAt}
                  name={childName}
                  onChange={(c) => setChild(i, c)}
                  onRemove={() => setChild(i, undefined)}
                  readOnly={readOnly}
                  vocabulary={vocabulary}
                  refusal={refusal}
                />
              )}
            </li>
          );
        })}
      </ol>
      {!readOnly && (
        <div class="row tests-group-add">
          <button type="button" class="secondary" onClick={() => onChange({ ...group, children: [...group.children, newLeaf()] })}>
            Add a condition to {target}
          </button>
          <button type="button" class="secondary" onClick={() => onChange({ ...group, children: [...group.children, newGroup('or')] })}>
            Add a group to {target}
          </button>
        </div>
      )}
    </div>
  );
}

/** A refusal without the path that placed it (`value: …`, `on.types[0]: …`): the marked field says where. */
const withoutPath = (message: string) => message.replace(/^(?:on\.types(?:\[\d+\])?|property|operator|values?(?:\[\d+\])?): /, '');

interface LeafProps {
  leaf: Leaf;
  at: string;
  name: string;
  onChange: (l: Leaf) => void;
  onRemove: () => void;
  readOnly: boolean;
  vocabulary: Vocabulary | undefined;
  refusal: string | undefined;
}

function LeafEditor({ leaf, at, name, onChange, onRemove, readOnly, vocabulary, refusal }: LeafProps) {
  const operators = vocabulary?.operators ?? [];
  const known = operators.find((o) => o.name === leaf.operator.toLowerCase());
  const binary = known ? known.binary : leaf.values.length > 0;
  const problem = messageAt(refusal, at);
  const id = `tests-leaf-${name.replace(/\W+/g, '-')}`;
  const faulty = (field: string) => (problem !== undefined && (problem.startsWith(field) || (field === 'value' && !/^(property|operator)\b/.test(problem))) ? true : undefined);
  return (
    <div class={`tests-leaf${problem ? ' tests-leaf-refused' : ''}`} role="group" aria-label={name} aria-describedby={problem ? `${id}-refusal` : undefined}>
      <div class="tests-leaf-fields">
        <div class="tests-leaf-property">
          <label for={`${id}-property`}>{name} property</label>
          <input
            id={`${id}-property`}
            type="text"
            list="tests-properties"
            value={leaf.property}
            placeholder="datasetProperties.description"
            readOnly={readOnly}
            required
            aria-invalid={faulty('property')}
            onInput={(e) => onChange({ ...leaf, property: (e.target as HTMLInputElement).value })}
          />
        </div>
        <div>
          <label for={`${id}-not`} class="tests-inline tests-not">
            <input id={`${id}-not`} type="checkbox" checked={leaf.negated} disabled={readOnly} onChange={(e) => onChange({ ...leaf, negated: (e.target as HTMLInputElement).checked })} />
            not<span class="tests-sr"> ({name} negated)</span>
          </label>
        </div>
        <div>
          <label for={`${id}-operator`}>{name} operator</label>
          <select
            id={`${id}-operator`}
            value={leaf.operator}
            disabled={readOnly}
            aria-invalid={faulty('operator')}
            onChange={(e) => {
              const operator = (e.target as HTMLSelectElement).value;
              const takesValues = operators.find((o) => o.name === operator)?.binary ?? true;
              onChange({ ...leaf, operator, values: takesValues ? (leaf.values.length > 0 ? leaf.values : ['']) : [] });
            }}
          >
            {!known && <option value={leaf.operator}>{leaf.operator || 'choose…'}</option>}
            {operators.map((o) => (
              <option key={o.name} value={o.name}>
                {OPERATOR_WORDS[o.name] ?? o.name}
              </option>
            ))}
          </select>
        </div>
        {binary &&
          leaf.values.map((value, i) => (
            <div key={i} class="tests-leaf-value">
              <label for={`${id}-value-${i}`}>
                {name} value{leaf.values.length > 1 ? ` ${i + 1}` : ''}
              </label>
              <div class="row">
                <input
                  id={`${id}-value-${i}`}
                  type="text"
                  value={value}
                  readOnly={readOnly}
                  aria-invalid={faulty('value')}
                  onInput={(e) => onChange({ ...leaf, values: leaf.values.map((v, k) => (k === i ? (e.target as HTMLInputElement).value : v)) })}
                />
                {!readOnly && leaf.values.length > 1 && (
                  <button type="button" class="link" aria-label={`Remove ${name} value ${i + 1}`} onClick={() => onChange({ ...leaf, values: leaf.values.filter((_, k) => k !== i) })}>
                    ✕
                  </button>
                )}
              </div>
            </div>
          ))}
      </div>
      {problem && (
        <p class="error tests-refusal" id={`${id}-refusal`}>
          {withoutPath(problem)}
        </p>
      )}
      {!readOnly && (
        <div class="row tests-leaf-actions">
          {binary && (
            <button type="button" class="link" onClick={() => onChange({ ...leaf, values: [...leaf.values, ''] })}>
              Add a value to {name}
            </button>
          )}
          <button type="button" class="link" onClick={onRemove}>
            Remove {name}
          </button>
        </div>
      )}
    </div>
  );
}
