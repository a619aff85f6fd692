// `"double":` right after `{` or `,` opens a key: inside a JSON string every quote is escaped.
const WHOLE_DOUBLE = /([{,]"double":)(-?\d+)(?=[,}])/g;

/**
 * A structured-property value `{"double": 30}` is written `{"double": 30.0}`, as DataHub (Java)
 * writes doubles. JavaScript keeps no difference between 30 and 30.0, but a Python client does:
 * json.loads gives an int for one and a float for the other, and DataHub's smoke fixtures compare
 * the types. `double` is a key only of PrimitivePropertyValue in the registry's schemas, and
 * always a double there. Answers without one pay a substring search. This is the reply serializer
 * of every JSON answer without a `response` schema (none that carries a value has one): a
 * serializer, not an onSend hook, which every answer would pass through.
 */
export function jsonAnswer(payload: unknown): string {
  const text = JSON.stringify(payload);
  return text.includes('"double":') ? text.replace(WHOLE_DOUBLE, '$1$2.0') : text;
}
