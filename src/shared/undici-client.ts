/**
 * undici, for the clients that send HTTP requests (webhook deliveries, the bureau, Twilio): imported
 * on a client's first request rather than when the service starts, so a start that sends nothing
 * neither reads nor evaluates it (bundled, it is a chunk of its own: scripts/build.mjs). The client's
 * connection pool is made at that first request too, one per client for its whole life, unless the
 * client was given one to send through (tests, a shared pool), which it leaves open.
 */
import type * as Undici from 'undici';

interface Loaded {
  request: typeof Undici.request;
  /** The pool requests go through: the client's own, or the one it was given. */
  dispatcher: Undici.Dispatcher;
}

export interface UndiciClient {
  /** undici's `request` and the pool to send through; the first call imports undici and makes the pool. */
  get(): Promise<Loaded>;
  /** Closes the client's own pool if it was made. A request after this fails as it does on a closed pool. */
  close(): Promise<void>;
}

/** `makePool`: the client's own pool (an undici Agent), made unless `given` is. */
export function undiciClient(
  makePool: (undici: Pick<typeof Undici, 'Agent' | 'buildConnector'>) => Undici.Dispatcher,
  given?: Undici.Dispatcher,
): UndiciClient {
  let loaded: Promise<Loaded & { own?: Undici.Dispatcher }> | undefined;
  let closed = false;
  return {
    get() {
      // undici is CommonJS: split into a chunk by the build, its exports are all under `default` (esbuild
      // gives a chunk no named exports of a CommonJS module), as Node gives them too.
      loaded ??= import('undici').then(({ default: undici }) => {
        const own = given ? undefined : makePool(undici);
        // Closed before its first request: the pool is closed as soon as made, as it would have been.
        if (closed) void own?.close();
        return { request: undici.request, dispatcher: (given ?? own)!, own };
      });
      return loaded;
    },
    async close() {
      closed = true;
      // An import that failed has no pool to close; the request that started it has reported it.
      const client = await loaded?.catch(() => undefined);
      await client?.own?.close();
    },
  };
}
