/** What the composition root and the process may use of the keys module. */
export { createKeysService, MissingKeysError } from './keys.service.ts';
export { keysRoutes } from './keys.routes.ts';
export { createKeysModule } from './keys.module.ts';
