import type { Writable } from 'node:stream';
import { ConfigError } from '../config.js';
import { groupUsage } from './command.js';
import { COMMANDS } from './commands.js';
import { migrateCommand } from './migrate.js';
import { propertiesCommand } from './properties.js';
import { serveCommand } from './serve.js';
import { testsCommand } from './tests.js';
import { tokenCommand } from './token.js';
import { exportCommand, importCommand } from './transfer.js';

/** Where a command's output goes: a process's stdout and stderr, or a test's buffers. */
export interface CliOutput {
  stdout: Writable;
  stderr: Writable;
  /** Progress bars are drawn only on a terminal; piped or logged runs get just the summary. */
  stderrIsTTY: boolean;
}

/**
 * Runs `urnbase <argv>`: resolves to the exit code, or to undefined for `serve` once it listens
 * (the process then lives on). Errors are thrown; `failure` turns them into the message and code.
 */
export async function runCli(argv: readonly string[], io: CliOutput): Promise<number | undefined> {
  const [command, ...rest] = argv;
  const out = (text: string) => void io.stdout.write(`${text}\n`);
  const progress = io.stderrIsTTY ? (text: string) => void io.stderr.write(text) : undefined;
  switch (command) {
    case 'serve':
      return serveCommand(rest, out, (text) => void io.stderr.write(`${text}\n`));
    case 'migrate':
      return migrateCommand(rest, out);
    case 'properties':
      return propertiesCommand(rest, out);
    case 'token':
      return tokenCommand(rest, out);
    case 'tests':
      return testsCommand(rest, out, progress);
    case 'export':
      return exportCommand(rest, io.stdout, (text) => void io.stderr.write(`${text}\n`));
    case 'import':
      return importCommand(rest, out, progress);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(groupUsage('', COMMANDS));
      return 0;
    default:
      throw new ConfigError(`unknown command ${JSON.stringify(command)}; try urnbase --help`);
  }
}

/** A failed command's one line for stderr, and its exit code: 2 for a usage or input error, else 1. */
export function failure(error: unknown): { line: string; code: number } {
  const message = error instanceof Error ? error.message : String(error);
  return { line: `urnbase: ${message.split('\n')[0]}`, code: error instanceof ConfigError ? 2 : 1 };
}
