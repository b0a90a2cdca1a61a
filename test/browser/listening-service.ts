/**
 * The real app for a browser test, listening on 127.0.0.1 on a free port: built by test/helper.ts (its own
 * test database on the current engine, `ADMIN_TOKEN` set), in the sandbox environment, with providers that
 * need no network (log SMS and e-mail, the sandbox bureau).
 */
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../src/composition.ts';
import { buildTestApp, type TestApp, type TestAppOptions } from '../helper.ts';

export interface ListeningService {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  base: string;
  app: FastifyInstance;
  container: Container;
  /** The whole test app (admin headers, a ready partner, captured logs, the outbox). */
  testApp: TestApp;
  close(): Promise<void>;
}

const offlineSandbox = {
  AUTOFIN_ENV: 'sandbox',
  SMS_PROVIDER: 'log',
  EMAIL_PROVIDER: 'log',
  BUREAU_PROVIDER: 'sandbox',
};

export async function startListeningService(options: TestAppOptions = {}): Promise<ListeningService> {
  const testApp = await buildTestApp({ ...options, env: { ...offlineSandbox, ...options.env } });
  try {
    const base = await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    return { base, app: testApp.app, container: testApp.container, testApp, close: () => testApp.close() };
  } catch (error) {
    await testApp.close();
    throw error;
  }
}
