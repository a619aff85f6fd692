import type { FastifyInstance } from 'fastify';

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (at most `graceMs`),
 * close the store, exit 0. Requests still running after the grace are cut off (exit 1); a second
 * signal stops at once.
 */
export function drainOnSignal(app: FastifyInstance, graceMs: number): void {
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
