/**
 * undici, for the clients that send HTTP requests (webhook deliveries, the bureau, Twilio): imported
 * on a client's first request rather than when the service starts, so a start that sends nothing
 * neither reads nor evaluates it (bundled, it is a chunk of its own: scripts/build.mjs). The client's
 * connection pool is made at that first request too, one per client for its whole life, unless the
 * client was given one to send through (tests, a shared pool), which it leaves open.
 *
 * A client made only because its provider is configured (the bureau, Twilio) is warmed when made: undici
 * loads in the background after start, so the first call's time limit is not spent loading it.
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
  /** Starts `get`'s import in the background; a failure is reported to the first request, which awaits it. */
  warm(): void;
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
  const get = () => {
    // undici is CommonJS: split into a chunk by the build, its exports are all under `default` (esbuild
    // gives a chunk no named exports of a CommonJS module), as Node gives them too.
    loaded ??= import('undici').then(async ({ default: undici }) => {
      const own = given ? undefined : makePool(undici);
      const client = { request: undici.request, dispatcher: (given ?? own)! };
      // Closed while undici loaded: the pool is closed as soon as made, as it would have been, and once.
      if (closed) await own?.close();
      return closed ? client : { ...client, own };
    });
    return loaded;
  };
  return {
    get,
    warm() {
      get().catch(() => {});
    },
    async close() {
      closed = true;
      // An import that failed has no pool to close; the request that started it has reported it.
      const client = await loaded?.catch(() => undefined);
      await client?.own?.close();
    },
  };
}
