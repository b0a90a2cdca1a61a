/**
 * Holds requests while the catalogs load: the service listens before its catalog index is built
 * (docs/performance.md, "How starts are kept short"), and a catalog read or a lead check made meanwhile
 * must wait for the catalogs rather than answer a 404 or an error. Once they are loaded the hook
 * is one check per request. `/health/live` is never held: the process is alive while it loads.
 */
import type { onRequestHookHandler } from 'fastify';
import type { CatalogStore } from './catalog-store.ts';

export function holdUntilCatalogsLoaded(store: Pick<CatalogStore, 'isLoaded' | 'loaded'>): onRequestHookHandler {
  return (request, _reply, done) => {
    if (store.isLoaded() || request.url === '/health/live') {
      done();
      return;
    }
    store.loaded().then(() => done(), done);
  };
}
