import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { holdUntilCatalogsLoaded } from './catalog-readiness.ts';

function loadingStore() {
  let loaded = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    isLoaded: () => loaded,
    loaded: () => done,
    finish: () => ((loaded = true), finish()),
  };
}

async function appWith(store: ReturnType<typeof loadingStore>) {
  const app = Fastify();
  app.get('/catalogs/years', async () => (store.isLoaded() ? ['2020'] : 'not loaded'));
  app.get('/health/live', async () => ({ status: 'ok' }));
  app.addHook('onRequest', holdUntilCatalogsLoaded(store));
  await app.ready();
  return app;
}

test('a request made while the catalogs load is answered once they are loaded, not before', async () => {
  const store = loadingStore();
  const app = await appWith(store);
  let answered = false;
  const pending = app.inject({ method: 'GET', url: '/catalogs/years' }).then((res) => ((answered = true), res));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(answered, false, 'held while loading');
  store.finish();
  const res = await pending;
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), ['2020']);
  await app.close();
});

test('/health/live answers while the catalogs load', async () => {
  const store = loadingStore();
  const app = await appWith(store);
  const res = await app.inject({ method: 'GET', url: '/health/live' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok' });
  await app.close();
});

test('once loaded, requests pass at once', async () => {
  const store = loadingStore();
  store.finish();
  const app = await appWith(store);
  const res = await app.inject({ method: 'GET', url: '/catalogs/years' });
  assert.deepEqual(res.json(), ['2020']);
  await app.close();
});
