#!/usr/bin/env node
import { groupUsage } from './cli/command.js';
import { COMMANDS } from './cli/commands.js';
import { migrateCommand } from './cli/migrate.js';
import { propertiesCommand } from './cli/properties.js';
import { serveCommand } from './cli/serve.js';
import { testsCommand } from './cli/tests.js';
import { tokenCommand } from './cli/token.js';
import { exportCommand, importCommand } from './cli/transfer.js';
import { ConfigError } from './config.js';

const line = (text: string) => process.stdout.write(`${text}\n`);

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'serve':
      return serveCommand(rest, line, (text) => process.stderr.write(`${text}\n`));
    case 'migrate':
      process.exitCode = await migrateCommand(rest, line);
      return;
    case 'properties':
      process.exitCode = await propertiesCommand(rest, line);
      return;
    case 'token':
      process.exitCode = await tokenCommand(rest, line);
      return;
    case 'tests':
      // The progress bar only goes to a terminal; piped or logged runs get just the summary.
      process.exitCode = await testsCommand(rest, line, process.stderr.isTTY ? (text) => process.stderr.write(text) : undefined);
      return;
    case 'export':
      process.exitCode = await exportCommand(rest, process.stdout, (text) => process.stderr.write(`${text}\n`));
      return;
    case 'import':
      process.exitCode = await importCommand(rest, line, process.stderr.isTTY ? (text) => process.stderr.write(text) : undefined);
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      line(groupUsage('', COMMANDS));
      return;
    default:
      throw new ConfigError(`unknown command ${JSON.stringify(command)}; try urnbase --help`);
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`urnbase: ${message.split('\n')[0]}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
