/** Forms as stored: DataHub's FormInfo on a form, and the computed `forms` aspect on its assets. */

export type FormType = 'COMPLETION' | 'VERIFICATION';

export interface FormPrompt {
  id: string;
  title: string;
  description?: string;
  type: string;
  structuredPropertyParams?: { urn: string };
  required?: boolean;
}

export interface FormActors {
  owners?: boolean;
  ownershipTypes?: string[];
  users?: string[];
  groups?: string[];
}

export interface FormInfo {
  name: string;
  description?: string;
  type?: FormType;
  prompts?: FormPrompt[];
  actors?: FormActors;
}

export interface AuditStamp {
  time: number;
  actor: string;
}

export interface FieldPromptState {
  fieldPath: string;
  lastModified: AuditStamp;
}

export interface PromptState {
  id: string;
  lastModified: AuditStamp;
  fieldAssociations?: { completedFieldPrompts?: FieldPromptState[]; incompleteFieldPrompts?: FieldPromptState[] };
}

export interface FormState {
  urn: string;
  incompletePrompts?: PromptState[];
  completedPrompts?: PromptState[];
}

export interface FormsAspect {
  incompleteForms: FormState[];
  completedForms: FormState[];
  verifications?: { form: string; lastModified?: AuditStamp }[];
}

export const FORM_ENTITY = 'form';
/** The prompt types whose answers are structured-property values (the others are not asked by urnbase). */
export const PROPERTY_PROMPTS = new Set(['STRUCTURED_PROPERTY', 'FIELDS_STRUCTURED_PROPERTY']);

export function formType(info: FormInfo | undefined): FormType {
  return info?.type === 'VERIFICATION' ? 'VERIFICATION' : 'COMPLETION';
}

/** Every form an asset's `forms` aspect names, in order, once. */
export function formUrns(value: unknown): string[] {
  const aspect = value as Partial<FormsAspect> | undefined;
  const urns: string[] = [];
  for (const list of [aspect?.incompleteForms, aspect?.completedForms]) {
    if (!Array.isArray(list)) continue;
    for (const f of list) if (typeof f?.urn === 'string' && !urns.includes(f.urn)) urns.push(f.urn);
  }
  return urns;
}

export function isVerified(value: unknown, form: string): boolean {
  return (value as Partial<FormsAspect> | undefined)?.verifications?.some((v) => v.form === form) ?? false;
}

/** A keyed-patch pointer segment for a URN (JSON Pointer escapes). */
export function pointerSegment(text: string): string {
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}
