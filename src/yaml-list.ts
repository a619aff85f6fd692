import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isRecord } from './json.js';

/** A YAML file the CLI cannot use: missing, unparsable, not a list, or an item that is wrong. */
export class YamlFileError extends Error {
  override name = 'YamlFileError';
}

/** The text of a file, or a YamlFileError naming it. */
export function readYamlText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new YamlFileError(`${file}: ${(error as Error).message}`);
  }
}

/** The items of a YAML document that is a list, or a mapping with that list under `key`. */
export function yamlItems(text: string, file: string, key: string): unknown[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new YamlFileError(`${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const items = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc[key]) ? doc[key] : undefined;
  if (!items) throw new YamlFileError(`${file}: expected a list of ${key}`);
  return items;
}
