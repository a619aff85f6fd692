/**
 * Forms in urnbase's GraphQL schema (resolvers/forms.ts): the `form` entity and the forms an
 * entity is assigned, as its `forms` aspect holds them. Read only: assigning forms and computing
 * their completion is not served. Written for urnbase under DataHub's type and field names.
 */

/** The entity types with a forms aspect that the schema has object types for. */
export const FORM_HOLDERS = [
  'Dataset',
  'Chart',
  'Dashboard',
  'DataJob',
  'DataFlow',
  'Container',
  'CorpUser',
  'CorpGroup',
  'Domain',
  'GlossaryTerm',
  'GlossaryNode',
  'DataProduct',
  'MLModel',
  'MLModelGroup',
  'MLFeatureTable',
  'MLFeature',
  'MLPrimaryKey',
] as const;

export const FORMS_SCHEMA = `
enum FormType {
  "Asks for answers."
  COMPLETION
  "Asks for answers, then for them to be verified."
  VERIFICATION
}

enum FormPromptType {
  STRUCTURED_PROPERTY
  FIELDS_STRUCTURED_PROPERTY
  OWNERSHIP
  DOCUMENTATION
  FIELDS_DOCUMENTATION
}

"When, and by whom, with the user resolved."
type ResolvedAuditStamp {
  time: Long!
  actor: CorpUser
}

type StructuredPropertyParams {
  structuredProperty: StructuredPropertyEntity!
}

type FormPrompt {
  id: String!
  "The form the prompt is part of."
  formUrn: String!
  title: String!
  description: String
  type: FormPromptType!
  structuredPropertyParams: StructuredPropertyParams
  required: Boolean!
}

type FormInfo {
  name: String!
  description: String
  type: FormType!
  prompts: [FormPrompt!]!
}

type Form implements Entity {
  urn: String!
  type: EntityType!
  "Null when the form has no formInfo aspect."
  info: FormInfo
  ownership: Ownership
}

type FormPromptAssociation {
  id: String!
  lastModified: ResolvedAuditStamp!
}

type FormAssociation {
  urn: String!
  "The entity the form is assigned to."
  associatedUrn: String!
  incompletePrompts: [FormPromptAssociation!]
  completedPrompts: [FormPromptAssociation!]
  form: Form!
}

type FormVerificationAssociation {
  form: Form!
  lastModified: ResolvedAuditStamp
}

type Forms {
  incompleteForms: [FormAssociation!]!
  completedForms: [FormAssociation!]!
  verifications: [FormVerificationAssociation!]!
}

${FORM_HOLDERS.map((type) => `extend type ${type} {\n  "The forms assigned to it (its forms aspect); null without one."\n  forms: Forms\n}`).join('\n\n')}
`;
