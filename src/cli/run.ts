import type { Writable } from 'node:stream';
import { ConfigError } from '../config.js';
import { groupUsage } from './command.js';

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
  // Each command loads only its own modules: a token command needs no HTTP server, serve no YAML.
  switch (command) {
    case 'serve':
      return (await import('./serve.js')).serveCommand(rest, out, (text) => void io.stderr.write(`${text}\n`));
    case 'migrate':
      return (await import('./migrate.js')).migrateCommand(rest, out);
    case 'properties':
      return (await import('./properties.js')).propertiesCommand(rest, out);
    case 'token':
      return (await import('./token.js')).tokenCommand(rest, out);
    case 'tests':
      return (await import('./tests.js')).testsCommand(rest, out, progress);
    case 'export':
      return (await import('./transfer.js')).exportCommand(rest, io.stdout, (text) => void io.stderr.write(`${text}\n`));
    case 'import':
      return (await import('./transfer.js')).importCommand(rest, out, progress);
    case undefined:
      // Like other CLIs: no command is a usage error, the usage goes where errors go.
      io.stderr.write(`${groupUsage('', (await import('./commands.js')).COMMANDS)}\n`);
      return 2;
    case 'help':
    case '--help':
    case '-h':
      out(groupUsage('', (await import('./commands.js')).COMMANDS));
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
