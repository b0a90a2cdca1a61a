/**
 * Fastify gives every request a child logger carrying its request id. Building that child costs
 * more than a catalog read, and most requests never write a line at an enabled level: this
 * stand-in builds the real child only when a line is actually written.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

class LazyChildLogger {
  private built: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
  ) {}

  private real(): Logger {
    return (this.built ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    if (this.built === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  isLevelEnabled(level: string): boolean {
    return (this.built ?? this.parent).isLevelEnabled(level);
  }

  get level(): string {
    return (this.built ?? this.parent).level;
  }

  set level(value: string) {
    this.real().level = value;
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }
}

export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options?: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
