/**
 * Which request, lead and company a provider call is made for, so every log line about the call
 * (sent, failed, circuit opened) can be traced back without threading ids through every adapter.
 * The HTTP edge opens the context around a handler; the provider layer only reads it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderLogger } from './logger-port.ts';

export interface CallContext {
  requestId?: string;
  leadId?: string;
  companyId?: string;
}

const storage = new AsyncLocalStorage<CallContext>();

export function runWithCallContext<T>(context: CallContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentCallContext(): CallContext | undefined {
  return storage.getStore();
}

/** A logger that adds the current call's ids to every line (the line's own fields win). */
export function withCallContext(logger: ProviderLogger): ProviderLogger {
  const line = (obj: object) => {
    const context = storage.getStore();
    return context ? { ...context, ...obj } : obj;
  };
  return {
    info: (obj, msg) => logger.info(line(obj), msg),
    warn: (obj, msg) => logger.warn(line(obj), msg),
    error: (obj, msg) => logger.error(line(obj), msg),
  };
}
