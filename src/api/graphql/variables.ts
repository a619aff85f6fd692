import {
  getNamedType,
  getNullableType,
  getOperationAST,
  GraphQLBoolean,
  isInputObjectType,
  isListType,
  typeFromAST,
  type GraphQLInputType,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { isRecord } from '../../json.js';
import { LIMITS } from '../../limits.js';

/**
 * Variables as DataHub's server reads them: graphql-java takes the strings "true" and "false" (in
 * any case: Python's str(False) is "False") where a Boolean is expected, and DataHub's SDK sends
 * `negated: "false"` in filters; graphql-js would refuse them. Only those strings, only at Boolean
 * positions, are turned into booleans.
 */
export function lenientBooleans(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): Record<string, unknown> {
  if (!hasBooleanText(variables, 0)) return variables;
  const operation = getOperationAST(document, operationName);
  if (!operation) return variables;
  const coerced: Record<string, unknown> = { ...variables };
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type && Object.hasOwn(coerced, name)) coerced[name] = coerce(coerced[name], type);
  }
  return coerced;
}

function coerce(value: unknown, type: GraphQLInputType): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const item = nullable.ofType as GraphQLInputType;
    return Array.isArray(value) ? value.map((v) => coerce(v, item)) : coerce(value, item);
  }
  if (nullable === GraphQLBoolean && typeof value === 'string') {
    const text = value.toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : value;
  }
  const named = getNamedType(nullable);
  if (isInputObjectType(named) && isRecord(value)) {
    const fields = named.getFields();
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = Object.hasOwn(fields, key) ? coerce(v, fields[key].type) : v;
    return out;
  }
  return value;
}

/** Whether any value is the string "true" or "false" (most requests have none: no parse). Depth is bounded by the body's. */
function hasBooleanText(value: unknown, depth: number): boolean {
  if (typeof value === 'string' && (value.length === 4 || value.length === 5) && /^(true|false)$/i.test(value)) return true;
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  return Object.values(value).some((v) => hasBooleanText(v, depth + 1));
}
