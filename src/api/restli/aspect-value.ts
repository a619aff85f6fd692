import { ValidationError } from '../../errors.js';
import { isRecord, nestsDeeperThan } from '../../json.js';
import { MAX_BODY_DEPTH } from '../body.js';

/**
 * A MetadataChangeProposal carries its aspect as a GenericAspect: `{value, contentType}`, where
 * `value` is a Pegasus `bytes` field holding the aspect's JSON. Pegasus writes bytes one char
 * per byte (U+0000–U+00FF), so the Java emitter sends the UTF-8 bytes of "café" as "cafÃ©"; the
 * Python emitter escapes everything past ASCII (`\u00e9`), so its text is the same either way.
 */
export function aspectText(value: string): string {
  // Nothing past ASCII: both readings agree. A char past U+00FF: not bytes, so text as it is.
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    // Not UTF-8 as bytes: a client that sent the JSON as text (Latin-1 letters and all).
    return value;
  }
}

/**
 * The aspect's JSON text parsed, with the checks Fastify's body parser gives request bodies:
 * Jackson's depth limit, and no keys that would reach an object's prototype.
 */
export function parseAspectJson(text: string, where: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(aspectText(text));
  } catch {
    // Not the parser's own words: they change between Node releases, and do not always say where.
    throw new ValidationError(`${where} is not valid JSON: it must be the aspect serialized as a JSON string`);
  }
  if (nestsDeeperThan(value, MAX_BODY_DEPTH)) throw new ValidationError(`${where} nests deeper than ${MAX_BODY_DEPTH} levels`);
  const key = prototypeKey(value);
  if (key) throw new ValidationError(`${where} has a forbidden key ${key}`);
  return value;
}

/** A `__proto__` key, or `constructor` holding `prototype`, anywhere in the value. */
function prototypeKey(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = prototypeKey(item);
      if (found) return found;
    }
  } else if (isRecord(value)) {
    if (Object.hasOwn(value, '__proto__')) return '__proto__';
    if (Object.hasOwn(value, 'constructor') && isRecord(value.constructor) && Object.hasOwn(value.constructor, 'prototype')) return 'constructor.prototype';
    for (const key of Object.keys(value)) {
      const found = prototypeKey(value[key]);
      if (found) return found;
    }
  }
  return undefined;
}
