import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLogger } from './lazy-request-logger.ts';
import { loggerOptions } from '../shared/index.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _e, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { logger: pino(loggerOptions(level), stream), lines };
}

test('a line at an enabled level carries the request bindings; a disabled level writes nothing', async () => {
  const { logger, lines } = capture('info');
  const child = lazyChildLogger(logger as unknown as FastifyBaseLogger, { requestId: 'req-1' });
  child.debug({ route: '/x' }, 'not written');
  child.info({ route: '/x', phone: '5512345678' }, 'written');
  await new Promise((r) => setImmediate(r));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].requestId, 'req-1');
  assert.equal(lines[0].msg, 'written');
  assert.equal(lines[0].phone, '[REDACTED]');
  assert.equal(child.level, 'info');
  const levels = child as unknown as { isLevelEnabled(level: string): boolean };
  assert.equal(levels.isLevelEnabled('debug'), false);
  assert.equal(levels.isLevelEnabled('info'), true);
  assert.equal(levels.isLevelEnabled('warn'), true);
});

test('children of the request logger keep the request id', async () => {
  const { logger, lines } = capture('debug');
  const child = lazyChildLogger(logger as unknown as FastifyBaseLogger, { requestId: 'req-2' }).child({ part: 'db' });
  child.debug('x');
  await new Promise((r) => setImmediate(r));
  assert.equal(lines[0].requestId, 'req-2');
  assert.equal(lines[0].part, 'db');
});
