/**
 * Forms in urnbase's GraphQL schema (resolvers/forms.ts, resolvers/mutations-forms.ts): the
 * `form` entity, the forms an entity is assigned as its computed `forms` aspect holds them, and
 * the mutations that define, assign, answer and verify forms. Written for urnbase under
 * DataHub's type, field, input and argument names.
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

const FORM_MUTATION_SCHEMA = `
"The structured property a prompt asks for."
input StructuredPropertyParamsInput {
  urn: String!
}

input OwnershipParamsInput {
  cardinality: PromptCardinality!
}

input CreatePromptInput {
  "Unique across all forms; a random UUID when omitted."
  id: String
  title: String!
  description: String
  type: FormPromptType!
  structuredPropertyParams: StructuredPropertyParamsInput
  "Accepted for DataHub's clients; urnbase asks STRUCTURED_PROPERTY and FIELDS_STRUCTURED_PROPERTY prompts only."
  ownershipParams: OwnershipParamsInput
  "False when omitted: only required prompts decide whether the form is complete."
  required: Boolean
}

input FormActorAssignmentInput {
  "The owners of each asset are asked (true when omitted)."
  owners: Boolean
  users: [String!]
  groups: [String!]
}

input CreateFormInput {
  "The last part of the URN (urn:li:form:<id>); a random UUID when omitted. An id already taken is refused."
  id: String
  name: String!
  description: String
  "COMPLETION when omitted."
  type: FormType
  prompts: [CreatePromptInput!]
  actors: FormActorAssignmentInput
}

"Changes to who is asked: users and groups replace the lists, the *ToAdd and *ToRemove fields change them."
input FormActorAssignmentUpdateInput {
  owners: Boolean
  users: [String!]
  usersToAdd: [String!]
  usersToRemove: [String!]
  groups: [String!]
  groupsToAdd: [String!]
  groupsToRemove: [String!]
}

"What is not given stays as it is. prompts replaces the list; promptsToAdd (a prompt of the same id is replaced) and promptsToRemove (prompt ids) change it."
input UpdateFormInput {
  urn: String!
  name: String
  description: String
  type: FormType
  prompts: [CreatePromptInput!]
  promptsToAdd: [CreatePromptInput!]
  promptsToRemove: [String!]
  actors: FormActorAssignmentUpdateInput
}

input DeleteFormInput {
  urn: String!
}

input BatchAssignFormInput {
  formUrn: String!
  entityUrns: [String!]!
}

input BatchRemoveFormInput {
  formUrn: String!
  entityUrns: [String!]!
}

"The assets matching any of orFilters (each an AND of criteria) hold the form, now and as they change."
input CreateDynamicFormAssignmentInput {
  formUrn: String!
  orFilters: [AndFilterInput!]!
}

input OwnershipInputParams {
  owners: [String!]!
  ownershipTypeUrn: String!
}

input SubmitFormPromptInput {
  promptId: String!
  formUrn: String!
  type: FormPromptType!
  "The schema field answered, for FIELDS_STRUCTURED_PROPERTY prompts (or fieldPaths)."
  fieldPath: String
  fieldPaths: [String!]
  structuredPropertyParams: StructuredPropertyInputParams
  "Accepted for DataHub's clients; urnbase has no OWNERSHIP prompts."
  ownershipParams: OwnershipInputParams
}

input VerifyFormInput {
  formUrn: String!
  entityUrn: String!
}

extend type Mutation {
  "Creates a form (its formInfo); admins only. Answers the form."
  createForm(input: CreateFormInput!): Form!
  "Changes a form's formInfo; admins only. Its assets' states follow. Answers the form."
  updateForm(input: UpdateFormInput!): Form!
  "Deletes a form; admins only. Every asset holding it drops it. True even when there was none."
  deleteForm(input: DeleteFormInput!): Boolean!
  "Assigns a form to every entity, or to none when one does not exist (each is named); admins only."
  batchAssignForm(input: BatchAssignFormInput!): Boolean
  "Takes a form off every entity, or off none when one does not exist; admins only."
  batchRemoveForm(input: BatchRemoveFormInput!): Boolean!
  "Assigns a form by filter (stored as its dynamicFormAssignment), and applies it now; admins only."
  createDynamicFormAssignment(input: CreateDynamicFormAssignmentInput!): Boolean
  "Answers a prompt of a form on the asset urn: sets the prompt's structured property there (or on a schema field). For the form's actors."
  submitFormPrompt(urn: String!, input: SubmitFormPromptInput!): Boolean
  "Verifies a VERIFICATION form on an asset once its required prompts are answered. For the form's actors."
  verifyForm(input: VerifyFormInput!): Boolean
}
`;

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

enum PromptCardinality {
  SINGLE
  MULTIPLE
}

"Who is asked to fill the form in."
type FormActorAssignment {
  "The owners of each asset the form is assigned to (true unless the form says otherwise)."
  owners: Boolean!
  users: [CorpUser!]
  groups: [CorpGroup!]
  "Whether the caller is named in users, or is a member of one of groups (ownership is not counted)."
  isAssignedToMe: Boolean!
}

type FormInfo {
  name: String!
  description: String
  type: FormType!
  prompts: [FormPrompt!]!
  actors: FormActorAssignment!
}

type Form implements Entity {
  urn: String!
  type: EntityType!
  "Null when the form has no formInfo aspect."
  info: FormInfo
  ownership: Ownership
}

type FieldFormPromptAssociation {
  fieldPath: String!
  lastModified: ResolvedAuditStamp!
}

"A schema-field prompt's state field by field."
type FormPromptFieldAssociations {
  completedFieldPrompts: [FieldFormPromptAssociation!]
  incompleteFieldPrompts: [FieldFormPromptAssociation!]
}

type FormPromptAssociation {
  id: String!
  lastModified: ResolvedAuditStamp!
  "Only for FIELDS_STRUCTURED_PROPERTY prompts."
  fieldAssociations: FormPromptFieldAssociations
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

${FORM_MUTATION_SCHEMA}
${FORM_HOLDERS.map((type) => `extend type ${type} {\n  "The forms assigned to it (its forms aspect); null without one."\n  forms: Forms\n}`).join('\n\n')}
`;
