import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { lazySerializerFactory } from './lazy-serializer.ts';

const Answer = { type: 'object', properties: { id: { type: 'string' }, count: { type: 'integer' } } } as const;
const NotFound = { type: 'object', properties: { id: { type: 'string' } } } as const;

function appWith(buildSerializer: SerializerFactory, schemas = { ok: Answer as object, missing: NotFound as object }) {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer } } });
  for (const path of ['/a', '/b']) {
    app.get(path, { schema: { response: { 200: schemas.ok, 404: schemas.missing } } }, async (request, reply) =>
      (request.query as { missing?: string }).missing
        ? reply.code(404).send({ id: 'none' })
        : { id: path, count: 2, secret: 'x' },
    );
  }
  return app;
}

test('a response serializer is compiled on the first answer of its schema, once in the process', async () => {
  const compiled: string[] = [];
  const counting: SerializerFactory = (external, options) => {
    const compile = SerializerSelector()(external, options);
    return (route) => (compiled.push(`${route.url} ${route.httpStatus}`), compile(route));
  };
  // Schemas no other test of the process has: what this one compiles is compiled here first.
  const schemas = {
    ok: { ...Answer, description: `answer ${randomUUID()}` },
    missing: { ...NotFound, description: `missing ${randomUUID()}` },
  };
  const app = appWith(lazySerializerFactory(counting), schemas);
  await app.ready();
  assert.deepEqual(compiled, [], 'nothing compiled at start');
  for (let i = 0; i < 3; i++) assert.equal((await app.inject('/a')).statusCode, 200);
  assert.deepEqual(compiled, ['/a 200']);
  assert.equal((await app.inject('/a?missing=1')).statusCode, 404);
  assert.deepEqual(compiled, ['/a 200', '/a 404']);
  // Another route, and another app of the process, with the same schemas: nothing is compiled again.
  const other = appWith(lazySerializerFactory(counting), schemas);
  for (const answering of [app, other]) {
    assert.equal((await answering.inject('/b')).body, '{"id":"/b","count":2}');
    assert.equal((await answering.inject('/b?missing=1')).body, '{"id":"none"}');
  }
  assert.deepEqual(compiled, ['/a 200', '/a 404']);
  // A schema that differs is compiled for itself.
  const changed = appWith(lazySerializerFactory(counting), { ...schemas, ok: { ...schemas.ok, title: 'otra' } });
  assert.equal((await changed.inject('/a')).body, '{"id":"/a","count":2}');
  assert.deepEqual(compiled, ['/a 200', '/a 404', '/a 200']);
  await Promise.all([app.close(), other.close(), changed.close()]);
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
