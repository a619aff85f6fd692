import type { CommandSpec } from './command.js';
import { MIGRATE } from './migrate.js';
import { PROPERTIES_COMMANDS } from './properties.js';
import { SERVE } from './serve.js';
import { TESTS_COMMANDS } from './tests.js';
import { TOKEN_COMMANDS } from './token.js';
import { EXPORT, IMPORT } from './transfer.js';

/** Every command, in the order `urnbase --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [SERVE, MIGRATE, ...PROPERTIES_COMMANDS, ...TESTS_COMMANDS, ...TOKEN_COMMANDS, EXPORT, IMPORT];
