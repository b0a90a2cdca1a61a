import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { lazySerializerFactory } from './lazy-serializer.ts';

const Answer = { type: 'object', properties: { id: { type: 'string' }, count: { type: 'integer' } } } as const;

function appWith(buildSerializer: SerializerFactory) {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer } } });
  for (const path of ['/a', '/b']) {
    app.get(path, { schema: { response: { 200: Answer, 404: Answer } } }, async (request, reply) =>
      (request.query as { missing?: string }).missing
        ? reply.code(404).send({ id: 'none' })
        : { id: path, count: 2, secret: 'x' },
    );
  }
  return app;
}

test('a response serializer is compiled on the first answer of its route and status, once', async () => {
  const compiled: string[] = [];
  const counting: SerializerFactory = (external, options) => {
    const compile = SerializerSelector()(external, options);
    return (route) => (compiled.push(`${route.url} ${route.httpStatus}`), compile(route));
  };
  const app = appWith(lazySerializerFactory(counting));
  await app.ready();
  assert.deepEqual(compiled, [], 'nothing compiled at start');
  for (let i = 0; i < 3; i++) assert.equal((await app.inject('/a')).statusCode, 200);
  assert.deepEqual(compiled, ['/a 200']);
  assert.equal((await app.inject('/a?missing=1')).statusCode, 404);
  assert.equal((await app.inject('/b')).statusCode, 200);
  assert.deepEqual(compiled, ['/a 200', '/a 404', '/b 200']);
  await app.close();
});

test("answers are the bytes of an eager compile: the schema's fields only, in its types", async () => {
  const lazy = appWith(lazySerializerFactory());
  const eager = appWith(SerializerSelector());
  for (const url of ['/a', '/b', '/a?missing=1']) {
    const [l, e] = [await lazy.inject(url), await eager.inject(url)];
    assert.equal(l.statusCode, e.statusCode, url);
    assert.equal(l.body, e.body, url);
  }
  assert.equal((await lazy.inject('/a')).body, '{"id":"/a","count":2}');
  await Promise.all([lazy.close(), eager.close()]);
});
