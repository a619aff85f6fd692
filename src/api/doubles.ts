import type { FastifyInstance } from 'fastify';

// `"double":` right after `{` or `,` opens a key: inside a JSON string every quote is escaped.
const WHOLE_DOUBLE = /([{,]"double":)(-?\d+)(?=[,}])/g;

/**
 * A structured-property value `{"double": 30}` is written `{"double": 30.0}`, as DataHub (Java)
 * writes doubles. JavaScript keeps no difference between 30 and 30.0, but a Python client does:
 * json.loads gives an int for one and a float for the other, and DataHub's smoke fixtures compare
 * the types. `double` is a key only of PrimitivePropertyValue in the registry's schemas, and
 * always a double there. Answers without one pay a substring search.
 */
export function registerDoubleRendering(app: FastifyInstance): void {
  // A callback, not an async function: the answer goes out in the same turn (see clientErrorHandler).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload !== 'string' || !payload.includes('"double":') || !String(reply.getHeader('content-type') ?? '').includes('json')) {
      return done(null, payload);
    }
    done(null, payload.replace(WHOLE_DOUBLE, '$1$2.0'));
  });
}
