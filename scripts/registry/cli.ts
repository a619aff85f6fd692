import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, writeGenerated } from './generate.js';

/** `npm run registry:generate -- <datahub checkout> --source "<what was read>"`: see generate.ts. */
const DATA_DIR = fileURLToPath(new URL('../../../src/registry/data/', import.meta.url));

const { values, positionals } = parseArgs({ allowPositionals: true, options: { source: { type: 'string' }, out: { type: 'string' } } });
if (positionals.length !== 1 || !values.source) {
  process.stderr.write('usage: npm run registry:generate -- <datahub checkout> --source "<DataHub commit or version read>" [--out <data dir>]\n');
  process.exit(2);
}
const generated = generate(positionals[0], values.source);
writeGenerated(generated, values.out ?? DATA_DIR);
process.stdout.write(`wrote ${generated.entityTypes} entity types and ${generated.aspects} aspects (${generated.timeseries} timeseries) to ${values.out ?? DATA_DIR}\n`);
