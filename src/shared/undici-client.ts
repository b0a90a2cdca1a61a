/**
 * undici, for the clients that send HTTP requests (webhook deliveries, the bureau, Twilio): imported
 * on a client's first request rather than when the service starts, so a start that sends nothing
 * neither reads nor evaluates it (bundled, it is a chunk of its own: scripts/build.mjs). The client's
 * connection pool is made at that first request too, one per client for its whole life.
 */
import type * as Undici from 'undici';

export interface UndiciClient<Pool> {
  /** undici's `request` and the client's pool; the first call imports undici and makes the pool. */
  get(): Promise<{ request: typeof Undici.request; pool: Pool }>;
  /** Closes the pool if it was made. A request after this fails as it does on a closed pool. */
  close(): Promise<void>;
}

/** `makePool`: the client's pool (an undici Agent), or null when it sends through one it was given. */
export function undiciClient<Pool extends { close(): Promise<void> } | null>(
  makePool: (undici: Pick<typeof Undici, 'Agent'>) => Pool,
): UndiciClient<Pool> {
  let loaded: Promise<{ request: typeof Undici.request; pool: Pool }> | undefined;
  let closed = false;
  return {
    get() {
      // undici is CommonJS: split into a chunk by the build, its exports are all under `default` (esbuild
      // gives a chunk no named exports of a CommonJS module), as Node gives them too.
      loaded ??= import('undici').then(({ default: undici }) => {
        const pool = makePool(undici);
        // Closed before its first request: the pool is closed as soon as made, as it would have been.
        if (closed) void pool?.close();
        return { request: undici.request, pool };
      });
      return loaded;
    },
    async close() {
      closed = true;
      // An import that failed has no pool to close; the request that started it has reported it.
      const client = await loaded?.catch(() => undefined);
      await client?.pool?.close();
    },
  };
}
