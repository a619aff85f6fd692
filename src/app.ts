import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { registerAuth } from './api/auth.js';
import { consoleRoutes } from './api/console.js';
import { dropTypeOfNoBody, registerBodyParsing } from './api/body.js';
import { jsonAnswer } from './api/doubles.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandlers } from './api/errors.js';
import { registerOpenApi } from './api/openapi.js';
import { statusRoutes, statusShapes } from './api/status.js';
import { metricsRoutes } from './api/metrics.js';
import { AccessLog } from './api/access-log.js';
import { echoRequestId, loggerOptions, requestId } from './api/request-id.js';
import { requestLogger } from './api/request-logger.js';
import { meterStore } from './metrics/metered-store.js';
import { Metrics } from './metrics/metrics.js';
import { testRoutes, testShapes } from './api/gms/test.js';
import { entityRoutesV2 } from './api/v2/entity.js';
import { entityShapes } from './api/v2/shapes.js';
import { searchRoutesV2, searchShapes } from './api/v2/search.js';
import { scrollRoutesV3, scrollShapesV3 } from './api/v3/scroll.js';
import { entityRoutesV3 } from './api/v3/entity.js';
import { batchRoutesV3 } from './api/v3/batch.js';
import { entityShapesV3 } from './api/v3/shapes.js';
import { restliRoutes, restliShapes } from './api/restli/restli.js';
import { tokenRoutes, tokenShapes } from './api/v2/tokens.js';
import { entityTypeRoutes, entityTypeShapes } from './api/v2/entity-types.js';
import { eventRoutes, eventShapes } from './api/v2/events.js';
import { formRoutesV2, formShapes } from './api/v2/forms.js';
import { lineageRoutes, lineageShapes } from './api/lineage.js';
import { filteredScrollRoutes, relationshipRoutes, relationshipShapes } from './api/relationships.js';
import { timelineRoutes, timelineShapes } from './api/timeline.js';
import { graphqlRoutes } from './api/graphql/routes.js';
import { bootstrapAdminToken } from './auth/bootstrap.js';
import { FailedAuthLimiter } from './auth/limiter.js';
import { TokenService } from './auth/tokens.js';
import type { Config } from './config.js';
import { LIMITS } from './limits.js';
import { ChangeLog } from './events/change-log.js';
import { ChangeLogRetention } from './events/retention.js';
import { TimeseriesRetention } from './events/timeseries-retention.js';
import { moveVersionedPoints } from './ingest/versioned-points.js';
import { ChangeFollower } from './events/follower.js';
import { buildCore, type CoreOptions } from './core.js';
import { collectWhenIdle } from './idle-collection.js';
import { bootstrap } from './ingest/bootstrap.js';
import { TestScheduler } from './metatests/scheduler.js';
import { Registry } from './registry/registry.js';
import type { Services } from './services.js';
import { timeseriesRoutesV2, timeseriesShapes } from './api/v2/timeseries.js';
import { signInHintRoutes, signInHintShapes } from './api/v2/sign-in-hint.js';
import { openStore } from './store/open.js';
import type { Store } from './store/store.js';

export type AppOptions = Pick<Config, 'dataDir' | 'logLevel' | 'bodyLimit'> &
  Partial<Pick<Config, 'host' | 'requestTimeout' | 'testsInterval' | 'testsOnChange' | 'testsWorkers' | 'auth' | 'adminToken' | 'eventsRetention' | 'timeseriesRetention' | 'databaseUrl' | 'dbTimeout' | 'dbPool' | 'sqliteSync'>> &
  Pick<CoreOptions, 'testsWorkersFrom' | 'graph'> & {
    /** Use this store instead of opening the configured one (SQLite in dataDir, or PostgreSQL). */
    store?: Store;
    /** Where log lines go (default stdout): tests read them. */
    logStream?: DestinationStream;
    /** Follow changes made by other processes through the change log (default: on PostgreSQL). */
    followChanges?: boolean;
    /** Failed authentications per address per minute before 429 (default 20). */
    authFailureLimit?: number;
    /** Run a full garbage collection whenever requests stop for this long (`urnbase serve`: 2 s). */
    collectWhenIdleMs?: number;
  };

/** The composition root: store, registry, services, HTTP server. */
export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; services: Services; createdAdminTokenFile?: string }> {
  const registry = Registry.load();
  // Every store call the app makes is timed; /metrics reads the figures.
  const metrics = new Metrics();
  const opened =
    options.store ??
    (await openStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, dbTimeoutMs: options.dbTimeout, dbPoolSize: options.dbPool, sqliteSync: options.sqliteSync }));
  const store = meterStore(opened, metrics.storeSeconds);
  metrics.watchChangeLog(store);
  const { reader, ingest, tests, indexer, graph, relationships, lineage, search, timeline, forms, forget } = buildCore(store, registry, options);
  await indexer.ensureBuilt(store);
  await graph.ensureBuilt(store);
  const tokens = new TokenService(store, options.adminToken);
  await bootstrap(registry, reader, ingest);

  const requestTimeout = options.requestTimeout ?? 30_000;
  const accessLog = new AccessLog();
  const app = Fastify({
    logger: options.logLevel === 'silent' ? false : loggerOptions(options.logLevel, options.logStream),
    genReqId: requestId,
    childLoggerFactory: requestLogger,
    // One line per request, at completion (Fastify's default adds a second as it comes in).
    logController: accessLog,
    bodyLimit: options.bodyLimit,
    // A client has this long to send its whole request, headers within a third of it; slow
    // senders are cut off (408) instead of holding connections open for ever. Node checks every second.
    requestTimeout,
    http: { headersTimeout: Math.ceil(requestTimeout / 3), connectionsCheckingInterval: 1000 },
    exposeHeadRoutes: false,
    frameworkErrors,
    clientErrorHandler,
    // URNs travel as single path segments and easily exceed the default 100 characters.
    routerOptions: { maxParamLength: 8192 },
  });
  const scheduler = new TestScheduler(
    tests,
    registry,
    { intervalMs: options.testsInterval ?? 0, onChange: options.testsOnChange ?? false },
    app.log,
  );
  scheduler.start(ingest);
  ingest.onFollowerError((err) => app.log.error({ err }, 'what follows from a committed write (a form assigned by filter) failed; the write stands, and its next write or the filter written again mends it'));
  const changeLog = new ChangeLog(store, ingest);
  const retention = new ChangeLogRetention(store, options.eventsRetention ?? 0, app.log);
  await retention.start();
  // Before retention: points moved from versions are then pruned like any others.
  await moveVersionedPoints(store, registry, app.log);
  const pointRetention = new TimeseriesRetention(store, registry, options.timeseriesRetention ?? 0, app.log);
  await pointRetention.start();
  // Replicas share the database: what this process caches follows the others' changes.
  const follower = (options.followChanges ?? store.location?.kind === 'postgres') ? new ChangeFollower(store, forget) : undefined;
  await follower?.start();
  // Long polls end at shutdown instead of holding it up.
  app.addHook('preClose', async () => changeLog.close());
  tests.onRun((run) => metrics.testRun(run.kind, run.outcome, run.seconds, run.entities));
  const services: Services = { registry, store, reader, ingest, tests, scheduler, tokens, search, timeline, relationships, lineage, forms };
  app.addHook('onClose', async () => {
    retention.stop();
    pointRetention.stop();
    follower?.stop();
    await scheduler.close();
    await store.close();
  });
  const activity = { requests: 0 };
  if (options.collectWhenIdleMs) {
    const collecting = collectWhenIdle(activity, (bytes) => metrics.liveHeapBytes(bytes), options.collectWhenIdleMs);
    app.addHook('onClose', async () => clearInterval(collecting));
  }
  // Routes that only read take small bodies (LIMITS.readBodyBytes), whatever --body-limit allows writes.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.config?.permission === 'read' && methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) {
      route.bodyLimit = Math.min(route.bodyLimit ?? options.bodyLimit, LIMITS.readBodyBytes);
    }
  });
  registerBodyParsing(app);
  app.setReplySerializer(jsonAnswer);
  registerErrorHandlers(app);
  // Auth is the caller's choice here (tests, embedding); `urnbase serve` turns it on by default.
  const auth = options.auth ?? false;
  const createdAdminTokenFile = auth && !options.adminToken ? await bootstrapAdminToken(tokens, options.dataDir, app.log) : undefined;
  const authenticate = registerAuth(app, tokens, new FailedAuthLimiter(options.authFailureLimit), auth);
  // What every request goes through before routing's work, in one hook (each hook Fastify runs costs a cached read a few per cent).
  app.addHook('onRequest', (req, reply, done) => {
    activity.requests++;
    // Node keeps the peer's address once read, for the connection: a request its client abandons
    // still logs it (access-log.ts), after the socket has gone.
    void req.socket.remoteAddress;
    echoRequestId(req, reply);
    // Answers are JSON, never to be sniffed as something else, and carry private metadata and
    // secrets (a new token) that no cache may keep; the console's files say otherwise for themselves.
    reply.header('x-content-type-options', 'nosniff').header('cache-control', 'no-store');
    dropTypeOfNoBody(req);
    authenticate(req, done);
  });
  app.addHook('onRequestAbort', (req, done) => {
    accessLog.requestAborted(req);
    done();
  });
  // The answers' named shapes, from the route modules that answer with them.
  await registerOpenApi(app, { ...statusShapes, ...entityShapes, ...searchShapes, ...scrollShapesV3, ...entityShapesV3, ...tokenShapes, ...signInHintShapes, ...eventShapes, ...entityTypeShapes, ...timelineShapes, ...relationshipShapes, ...lineageShapes, ...testShapes, ...restliShapes, ...timeseriesShapes, ...formShapes });
  statusRoutes(app);
  metricsRoutes(app, metrics);
  entityRoutesV2(app, services);
  searchRoutesV2(app, services);
  scrollRoutesV3(app, services);
  entityRoutesV3(app, services);
  batchRoutesV3(app, services);
  testRoutes(app, tests);
  restliRoutes(app, services);
  tokenRoutes(app, tokens);
  signInHintRoutes(app, { dataDir: options.dataDir, host: options.host, adminTokenFromEnv: options.adminToken !== undefined });
  eventRoutes(app, changeLog, registry);
  entityTypeRoutes(app, registry);
  timelineRoutes(app, timeline);
  relationshipRoutes(app, relationships, registry);
  filteredScrollRoutes(app, relationships, registry, graph.lineageKinds());
  lineageRoutes(app, lineage, registry);
  timeseriesRoutesV2(app, services);
  formRoutesV2(app, services);
  await graphqlRoutes(app, services);
  await consoleRoutes(app);
  await app.ready();
  return { app, services, createdAdminTokenFile };
}
