/**
 * Response serializers compiled on first use. Fastify compiles a serializer (fast-json-stringify) for
 * every response schema of every route when the app starts: the API declares each route's answers,
 * errors included (openapi-answers.ts), so that is several hundred schemas and about a second of CPU
 * before the service can listen. Here each one is compiled by Fastify's own compiler the first time a
 * route sends that status, and kept: the same bytes as an eager compile, a few milliseconds once on
 * the first answer of its kind. A schema that cannot be compiled fails its first answer (a 500), which
 * the route tests, run against every declared answer, would show.
 *
 * A serializer depends only on its schema, the shared schemas and the options, so one compiled for an app
 * serves every other app of the process built from the same ones (the tests build hundreds of apps in
 * one process; the service builds one).
 */
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;

/** The process's serializers: by the shared schemas and options, then by the route's schema (as JSON). */
const compiled = new Map<string, Map<string, Serialize>>();

export function lazySerializerFactory(eager: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    // An option given as a function (a rounding, say) is keyed by its source.
    const sharedKey = JSON.stringify([externalSchemas, options], (_, v: unknown) =>
      typeof v === 'function' ? String(v) : v,
    );
    let known = compiled.get(sharedKey);
    if (!known) compiled.set(sharedKey, (known = new Map()));
    const cache = known;
    return (route) => {
      let serialize: Serialize | undefined;
      const first = (): Serialize => {
        const key = JSON.stringify(route.schema);
        let found = cache.get(key);
        if (!found) cache.set(key, (found = compile(route) as Serialize));
        return found;
      };
      return (data) => (serialize ??= first())(data);
    };
  };
}
