#!/usr/bin/env node
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { exportCommand, EXPORT_USAGE, importCommand, IMPORT_USAGE } from './cli/transfer.js';
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
       urnbase token create --name NAME --role admin|editor|viewer [--expires 90d] [--data-dir DIR | --database-url URL]
       urnbase token list [--data-dir DIR | --database-url URL]
       urnbase token revoke <id> [--data-dir DIR | --database-url URL]
       ${EXPORT_USAGE.slice('usage: '.length)}
       ${IMPORT_USAGE.slice('usage: '.length)}

serve options (each also an environment variable):
${OPTION_HELP.map((o) => `  ${o.flag.padEnd(14)} ${o.env.padEnd(20)} default ${o.default}`).join('\n')}
`;

async function serve(argv: string[]): Promise<void> {
  const config = loadConfig(argv);
  const { app } = await buildApp({ ...config, collectWhenIdleMs: 2000 });
  if (!config.auth) app.log.warn('authentication is OFF (--auth false): anyone who can reach this port can read and write everything');
  drainOnSignal(app, config.shutdownGrace);
  await app.listen({ port: config.port, host: config.host });
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (at most `graceMs`),
 * close the store, exit 0. Requests still running after the grace are cut off (exit 1); a second
 * signal stops at once.
 */
function drainOnSignal(app: FastifyInstance, graceMs: number): void {
  let draining = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) process.exit(1);
    draining = true;
    app.log.info({ signal, graceMs }, 'draining in-flight requests, then stopping');
    let cutOff = false;
    const timer = setTimeout(() => {
      cutOff = true;
      app.log.warn({ graceMs }, 'shutdown grace over: closing the connections still open');
      app.server.closeAllConnections();
    }, graceMs);
    app.close().then(
      () => {
        clearTimeout(timer);
        app.log.info('stopped');
        process.exit(cutOff ? 1 : 0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
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
    case 'export':
      process.exitCode = await exportCommand(rest, process.stdout, (line) => process.stderr.write(`${line}\n`));
      return;
    case 'import':
      process.exitCode = await importCommand(
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
