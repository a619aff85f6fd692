import { ValidationError } from '../errors.js';
import type { AspectPlugin } from '../ingest/plugins.js';
import type { Registry } from '../registry/registry.js';
import { definitionMd5, type TestInfo } from './catalog.js';
import { DefinitionError, parseDefinition } from './definition.js';

/** `testInfo` writes: the definition must parse and validate; the server stamps its md5. */
export function testInfoRules(registry: Registry): AspectPlugin {
  return {
    mutate(change) {
      const info = change.value as TestInfo;
      if (typeof info?.definition?.json !== 'string') return change.value;
      return { ...info, definition: { ...info.definition, md5: definitionMd5(info.definition.json) } };
    },
    validate(change) {
      if (change.value === undefined) return [];
      try {
        parseDefinition((change.value as TestInfo).definition.json, registry);
        return [];
      } catch (error) {
        if (error instanceof DefinitionError) return [new ValidationError(error.message)];
        throw error;
      }
    },
  };
}
