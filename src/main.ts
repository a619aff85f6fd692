#!/usr/bin/env node
import { buildApp } from './app.js';
import { migrateCommand } from './cli/migrate.js';
import { propertiesCommand } from './cli/properties.js';
import { testsCommand } from './cli/tests.js';
import { tokenCommand } from './cli/token.js';
import { ConfigError, loadConfig, OPTION_HELP } from './config.js';

const USAGE = `usage: urnbase serve [options]
       urnbase migrate [--database-url URL | --data-dir DIR]
       urnbase properties upsert -f <file.yaml> [--url URL] [--token TOKEN]
       urnbase properties list [--url URL] [--token TOKEN]
       urnbase tests upsert -f <file.yaml> [--url URL] [--token TOKEN]
       urnbase tests run [--test URN]... [--push] [--data-dir DIR]
       urnbase token create --name NAME --role admin|editor|viewer [--expires 90d] [--data-dir DIR]
       urnbase token list [--data-dir DIR]
       urnbase token revoke <id> [--data-dir DIR]

serve options (each also an environment variable):
${OPTION_HELP.map((o) => `  ${o.flag.padEnd(14)} ${o.env.padEnd(20)} default ${o.default}`).join('\n')}
`;

async function serve(argv: string[]): Promise<void> {
  const config = loadConfig(argv);
  const { app } = await buildApp(config);
  if (!config.auth) app.log.warn('authentication is OFF (--auth false): anyone who can reach this port can read and write everything');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(() => process.exit(0), () => process.exit(1));
    });
  }
  await app.listen({ port: config.port, host: config.host });
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'migrate':
      process.exitCode = await migrateCommand(rest, (line) => process.stdout.write(`${line}\n`));
      return;
    case 'properties':
      process.exitCode = await propertiesCommand(rest, (line) => process.stdout.write(`${line}\n`));
      return;
    case 'token':
      process.exitCode = await tokenCommand(rest, (line) => process.stdout.write(`${line}\n`));
      return;
    case 'tests':
      // The progress bar only goes to a terminal; piped or logged runs get just the summary.
      process.exitCode = await testsCommand(
        rest,
        (line) => process.stdout.write(`${line}\n`),
        process.stderr.isTTY ? (text) => process.stderr.write(text) : undefined,
      );
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
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
