/**
 * Structured JSON logs that carry ids, never people. The single list of personal and secret
 * fields below is censored wherever it appears in a logged object, at any depth. Censoring walks
 * the logged object's keys (a set lookup each), which costs far less per line than pino's
 * wildcard redaction paths on the hot path.
 */
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

export const sensitiveFields = [
  // people
  'firstName',
  'secondName',
  'lastName',
  'secondLastName',
  'rfc',
  'birthDate',
  'phone',
  'email',
  'to',
  'income',
  'street',
  'number',
  'interior',
  'neighborhood',
  // verification and bureau
  'pin',
  'pinConfirmation',
  'report',
  'bureauReport',
  'body',
  'text',
  // Círculo de Crédito's request, answer and headers
  'primerNombre',
  'segundoNombre',
  'apellidoPaterno',
  'apellidoMaterno',
  'fechaNacimiento',
  'RFC',
  'direccion',
  'raw',
  'x-api-key',
  'x-signature',
  'username',
  // secrets
  'consumer_secret',
  'access_token',
  'authorization',
  'password',
  'secret',
] as const;

const sensitive: ReadonlySet<string> = new Set(sensitiveFields);
export const censor = '[REDACTED]';
const maxDepth = 8;

/**
 * A copy of `value` with every sensitive key censored, or `value` itself when it holds none (the
 * usual case, so nothing is allocated). Errors are left to pino's error serializer.
 */
export function censorSensitive<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || value instanceof Error || depth > maxDepth) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = censorSensitive(item, depth + 1);
      if (clean !== item) (copy ??= [...value])[i] = clean;
    });
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const clean = sensitive.has(key) ? censor : censorSensitive(item, depth + 1);
    if (clean !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = clean;
  }
  return (copy ?? value) as T;
}

/**
 * `fields`, when given, adds to every line what it returns at the time (tracing's `traceId` and
 * `spanId`); without it, lines cost nothing more.
 */
export function loggerOptions(level: string, fields?: () => Record<string, string>): LoggerOptions {
  return {
    level,
    base: { service: 'autofin' },
    ...(fields ? { mixin: fields } : {}),
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { log: (object) => censorSensitive(object) },
  };
}

/** Lines are written this many bytes at a time (about 50 access lines)… */
export const logWriteBytes = 16_384;
/** …or after this long, whichever comes first. */
export const logFlushMs = 250;

/**
 * Where the service writes its lines (a file descriptor or a path): asynchronously, so a line never
 * blocks a request, and 16 KiB at a time, so a busy instance writes tens of lines with one call
 * rather than one call each. What is buffered is written on any exit of the process (pino sees to it)
 * and by `flushSync()` on a graceful stop; a killed process loses at most its last `logFlushMs`.
 */
export function logDestination(dest: number | string) {
  return pino.destination({
    dest,
    sync: false,
    minLength: logWriteBytes,
    // What piles up while one write is under way goes out in one call too.
    maxWrite: logWriteBytes * 4,
    periodicFlush: logFlushMs,
  });
}

export type { DestinationStream };
