import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made into pino's child logger only when a line is written at an enabled
 * level. Fastify gives every request a child logger (binding its request id); pino builds it
 * eagerly, serialising the bindings, yet almost no request writes a line of its own: its access
 * line goes through the server's logger (access-log.ts). That was 2–3% of a cached read's CPU.
 */
class RequestLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? this.parent.level;
  }
  set level(level: LevelWithSilentOrString) {
    this.real.level = level;
  }

  private write(level: Level, args: unknown[]): void {
    if (this.isLevelEnabled(level)) (this.real[level] as (...a: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
  /** pino's answer; Fastify's null logger (logging off) has no such method and writes nothing anyway. */
  isLevelEnabled(level: string): boolean {
    const parent = this.parent as Partial<Pick<Logger, 'isLevelEnabled'>>;
    return parent.isLevelEnabled ? parent.isLevelEnabled(level) : true;
  }
}

/** Fastify's childLoggerFactory: each request's logger, made lazily. */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
