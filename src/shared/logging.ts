/**
 * Structured JSON logs that carry ids, never people. The single list of personal and secret
 * fields below is redacted wherever it appears in a logged object (up to three levels deep).
 */
import type { DestinationStream, LoggerOptions } from 'pino';

export const sensitiveFields = [
  // people
  'firstName', 'secondName', 'lastName', 'secondLastName', 'rfc', 'birthDate',
  'phone', 'email', 'to', 'income', 'street', 'number', 'interior', 'neighborhood',
  // verification and bureau
  'pin', 'pinConfirmation', 'report', 'bureauReport', 'body', 'text',
  // secrets
  'consumer_secret', 'access_token', 'authorization', 'password', 'secret',
] as const;

export function redactionPaths(): string[] {
  return sensitiveFields.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]);
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactionPaths(), censor: '[REDACTED]' },
    base: { service: 'autofin' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
  };
}

export type { DestinationStream };
