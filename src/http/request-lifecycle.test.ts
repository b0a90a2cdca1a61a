import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import Fastify from 'fastify';
import pino from 'pino';
import { loggerOptions } from '../shared/index.ts';
import { createMetrics } from '../operations/index.ts';
import { lazyChildLogger } from './lazy-request-logger.ts';
import { RequestLifecycle } from './request-lifecycle.ts';

/** A small app wired as the service wires its logger: lazy request loggers and this log controller. */
async function appAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _e, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  const metrics = createMetrics();
  const app = Fastify({
    loggerInstance: pino(loggerOptions(level), stream),
    logController: new RequestLifecycle(metrics),
    childLoggerFactory: (logger, bindings, options) => lazyChildLogger(logger, bindings, options),
    genReqId: () => 'req-7',
  });
  app.get('/things/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  app.post('/things', async (_request, reply) => reply.code(201).send({ ok: true }));
  app.get('/broken', async () => {
    throw Object.assign(new Error('boom'), { statusCode: 409 });
  });
  await app.ready();
  return { app, lines, metrics };
}

const completed = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === 'request completed');

test(
  'every answer carries its request id; a successful ' + 'read writes no line at info, a write one info line',
  async () => {
    const { app, lines } = await appAt('info');
    const read = await app.inject({ method: 'GET', url: '/things/5' });
    assert.equal(read.statusCode, 200);
    assert.equal(read.headers['x-request-id'], 'req-7');
    await tick();
    assert.equal(lines.length, 0, JSON.stringify(lines));

    const write = await app.inject({ method: 'POST', url: '/things', payload: {} });
    assert.equal(write.statusCode, 201);
    assert.equal(write.headers['x-request-id'], 'req-7');
    await tick();
    assert.equal(lines.length, 1);
    const [line] = lines;
    assert.equal(line.msg, 'request completed');
    assert.equal(line.level, 30);
    assert.equal(line.requestId, 'req-7');
    assert.deepEqual(
      { method: line.method, url: line.url, route: line.route, status: line.status },
      { method: 'POST', url: '/things', route: '/things', status: 201 },
    );
    assert.equal(typeof line.ms, 'number');
    await app.close();
  },
);

test('a refused read is logged at info with its route and status', async () => {
  const { app, lines } = await appAt('info');
  const res = await app.inject({ method: 'GET', url: '/broken' });
  assert.equal(res.statusCode, 409);
  await tick();
  const [line] = completed(lines);
  assert.equal(line.level, 30);
  assert.deepEqual({ route: line.route, status: line.status }, { route: '/broken', status: 409 });
  await app.close();
});

test('at debug a read writes its arrival and its completion, both at debug', async () => {
  const { app, lines } = await appAt('debug');
  await app.inject({ method: 'GET', url: '/things/5' });
  await tick();
  const received = lines.find((l) => l.msg === 'request received');
  assert.ok(received, JSON.stringify(lines));
  assert.deepEqual(
    { level: received.level, method: received.method, url: received.url, requestId: received.requestId },
    { level: 20, method: 'GET', url: '/things/5', requestId: 'req-7' },
  );
  const [line] = completed(lines);
  assert.deepEqual(
    { level: line.level, route: line.route, status: line.status },
    { level: 20, route: '/things/:id', status: 200 },
  );
  await app.close();
});

test('the metrics count every request by route and status, whether a line was written or not', async () => {
  const { app, metrics } = await appAt('warn');
  await app.inject({ method: 'GET', url: '/things/1' });
  await app.inject({ method: 'GET', url: '/things/2' });
  await app.inject({ method: 'GET', url: '/nowhere' });
  const text = await metrics.registry.metrics();
  assert.match(text, /autofin_http_requests_total\{method="GET",route="\/things\/:id",status="200"\} 2/);
  assert.match(text, /autofin_http_requests_total\{method="GET",route="unknown",status="404"\} 1/);
  await app.close();
});
