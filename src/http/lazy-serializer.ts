/**
 * Response serializers compiled on first use. Fastify compiles a serializer (fast-json-stringify) for
 * every response schema of every route when the app starts: the API declares each route's answers,
 * errors included (openapi-answers.ts), so that is several hundred schemas and about a second of CPU
 * before the service can listen. Here each one is compiled by Fastify's own compiler the first time a
 * route sends that status, and kept: the same bytes as an eager compile, a few milliseconds once on
 * the first answer of its kind. A schema that cannot be compiled fails its first answer (a 500), which
 * the route tests, run against every declared answer, would show.
 */
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

export function lazySerializerFactory(eager: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data) => (serialize ??= compile(route))(data);
    };
  };
}
