import { ValidationError } from '../errors.js';
import { formType, type AuditStamp, type FormInfo, type FormState, type FormsAspect, type PromptState } from './model.js';

/** What an asset has answered: the properties with a value, and per schema field the same. */
export interface Answers {
  answered: ReadonlySet<string>;
  /** The asset's schema fields, in order; undefined when it has no schema. */
  fields?: readonly string[];
  fieldAnswered?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The `forms` aspect of one asset, worked out from the forms it is assigned and its answers. */
export interface FormsInput {
  /** The forms the asset is assigned, in order. */
  forms: readonly string[];
  /** The stored value before this write: completion times and verifications carry over. */
  previous: Partial<FormsAspect> | undefined;
  /** Verifications the write itself carries (verifyForm adds one). */
  written: Partial<FormsAspect> | undefined;
  infos: ReadonlyMap<string, FormInfo | undefined>;
  answers: Answers;
  stamp: AuditStamp;
  asset: string;
}

/**
 * The computed value. A form whose `formInfo` is gone is dropped. A form is complete when each
 * required prompt is answered; a VERIFICATION form's verification is kept while it stays complete,
 * and a verification the write adds must be of a complete VERIFICATION form.
 */
export function computeForms(input: FormsInput): FormsAspect {
  const before = promptStamps(input.previous);
  const incompleteForms: FormState[] = [];
  const completedForms: FormState[] = [];
  for (const urn of input.forms) {
    const info = input.infos.get(urn);
    if (!info) continue;
    const state = formState(urn, info, input.answers, before, input.stamp);
    (isComplete(info, state) ? completedForms : incompleteForms).push(state);
  }
  const complete = new Set(completedForms.map((f) => f.urn));
  const kept = new Map((input.previous?.verifications ?? []).map((v) => [v.form, v]));
  const verifications: NonNullable<FormsAspect['verifications']> = [];
  for (const v of input.written?.verifications ?? []) {
    if (verifications.some((w) => w.form === v.form)) continue;
    const ok = complete.has(v.form) && formType(input.infos.get(v.form)) === 'VERIFICATION';
    // When and by whom is the server's to say: a kept verification keeps its stamp, a new one gets the write's.
    if (ok) verifications.push(kept.get(v.form) ?? { form: v.form, lastModified: input.stamp });
    else if (!kept.has(v.form)) throw new ValidationError(verificationProblem(v.form, input));
  }
  // Always present (DataHub's default is []), so that a keyed patch can remove from it.
  return { incompleteForms, completedForms, verifications };
}

function verificationProblem(form: string, input: FormsInput): string {
  const info = input.infos.get(form);
  if (!input.forms.includes(form) || !info) return `Cannot verify form ${form} on ${input.asset}: the form is not assigned to it`;
  if (formType(info) !== 'VERIFICATION') return `Cannot verify form ${form} on ${input.asset}: it is a COMPLETION form, which has no verification step`;
  return `Cannot verify form ${form} on ${input.asset}: its required prompts are not all answered yet`;
}

function isComplete(info: FormInfo, state: FormState): boolean {
  const open = new Set((state.incompletePrompts ?? []).map((p) => p.id));
  return (info.prompts ?? []).every((p) => !p.required || !open.has(p.id));
}

function formState(urn: string, info: FormInfo, answers: Answers, before: Map<string, AuditStamp>, stamp: AuditStamp): FormState {
  const incompletePrompts: PromptState[] = [];
  const completedPrompts: PromptState[] = [];
  // A prompt keeps its time while its state stays: recomputing what did not change changes nothing.
  const since = (id: string, done: boolean): AuditStamp => before.get(`${done}\u0000${urn}\u0000${id}`) ?? stamp;
  for (const prompt of info.prompts ?? []) {
    const property = prompt.structuredPropertyParams?.urn;
    if (prompt.type === 'FIELDS_STRUCTURED_PROPERTY') {
      const fields = answers.fields ?? [];
      const done = fields.filter((f) => property !== undefined && answers.fieldAnswered?.get(f)?.has(property));
      const open = fields.filter((f) => !done.includes(f));
      const lastModified = since(prompt.id, open.length === 0);
      // Each field keeps the time it reached its state: who answered a field, and when.
      const fieldSince = (fieldPath: string, fieldDone: boolean) => before.get(`${fieldDone}\u0000${urn}\u0000${prompt.id}\u0000${fieldPath}`) ?? stamp;
      const fieldAssociations = {
        completedFieldPrompts: done.map((fieldPath) => ({ fieldPath, lastModified: fieldSince(fieldPath, true) })),
        incompleteFieldPrompts: open.map((fieldPath) => ({ fieldPath, lastModified: fieldSince(fieldPath, false) })),
      };
      (open.length === 0 ? completedPrompts : incompletePrompts).push({ id: prompt.id, lastModified, fieldAssociations });
    } else if (property !== undefined && answers.answered.has(property)) {
      completedPrompts.push({ id: prompt.id, lastModified: since(prompt.id, true) });
    } else {
      incompletePrompts.push({ id: prompt.id, lastModified: since(prompt.id, false) });
    }
  }
  return { urn, incompletePrompts, completedPrompts };
}

/** When each prompt (done NUL form NUL prompt id) and each of its fields (… NUL field path) reached its stored state, as the stored value says. */
function promptStamps(previous: Partial<FormsAspect> | undefined): Map<string, AuditStamp> {
  const stamps = new Map<string, AuditStamp>();
  for (const list of [previous?.incompleteForms, previous?.completedForms]) {
    for (const form of list ?? []) {
      for (const [done, prompts] of [[true, form.completedPrompts], [false, form.incompletePrompts]] as const) {
        for (const p of prompts ?? []) {
          stamps.set(`${done}\u0000${form.urn}\u0000${p.id}`, p.lastModified);
          for (const f of p.fieldAssociations?.completedFieldPrompts ?? []) stamps.set(`true\u0000${form.urn}\u0000${p.id}\u0000${f.fieldPath}`, f.lastModified);
          for (const f of p.fieldAssociations?.incompleteFieldPrompts ?? []) stamps.set(`false\u0000${form.urn}\u0000${p.id}\u0000${f.fieldPath}`, f.lastModified);
        }
      }
    }
  }
  return stamps;
}
