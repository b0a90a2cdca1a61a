/** What the composition root and the process may use of the keys module. */
export { createKeysService, MissingKeysError, type KeysService } from './keys.service.ts';
export { keysRoutes } from './keys.routes.ts';
export { createKeysModule, type KeysModule } from './keys.module.ts';
