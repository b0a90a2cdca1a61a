/**
 * The little of a logger the provider layer needs. Fastify's pino logger satisfies it; tests pass a
 * recorder. Adapters log ids, kinds and lengths only: never a phone, an e-mail address, a message
 * body or a PIN (the body of a verification message IS the PIN).
 */
export interface ProviderLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
