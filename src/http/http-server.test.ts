import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { serverWithFastPath, type FastPath } from './http-server.ts';

async function appWith(fastPath: FastPath, warnings: unknown[] = []) {
  const app = Fastify({ logger: false, keepAliveTimeout: 5_000, requestTimeout: 30_000, maxRequestsPerSocket: 100, serverFactory: serverWithFastPath(fastPath, (e) => warnings.push(e)) });
  app.get('/routed', async () => ({ by: 'fastify' }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}

test('a request the fast path answers never reaches Fastify; one it leaves is routed as usual', async () => {
  const { app, base } = await appWith((req, res) => {
    if (req.url !== '/fast') return false;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('fast');
    return true;
  });
  try {
    const fast = await fetch(`${base}/fast`);
    assert.equal(fast.status, 200);
    assert.equal(await fast.text(), 'fast');
    const routed = await fetch(`${base}/routed`);
    assert.deepEqual(await routed.json(), { by: 'fastify' });
    assert.equal((await fetch(`${base}/missing`)).status, 404);
  } finally {
    await app.close();
  }
});

test('a fast path that throws before writing leaves the request to Fastify, and the failure is reported', async () => {
  const warnings: unknown[] = [];
  const { app, base } = await appWith(() => {
    throw new Error('broken fast path');
  }, warnings);
  try {
    const routed = await fetch(`${base}/routed`);
    assert.equal(routed.status, 200);
    assert.deepEqual(await routed.json(), { by: 'fastify' });
    assert.equal((warnings[0] as Error).message, 'broken fast path');
  } finally {
    await app.close();
  }
});

test('the server gets the timeouts and limits of the app\'s options, as Fastify\'s own server would', async () => {
  const { app } = await appWith(() => false);
  try {
    assert.equal(app.server.keepAliveTimeout, 5_000);
    assert.equal(app.server.requestTimeout, 30_000);
    assert.equal(app.server.maxRequestsPerSocket, 100);
  } finally {
    await app.close();
  }
});
