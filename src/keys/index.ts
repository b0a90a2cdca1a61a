/** What the composition root and the process may use of the keys module. */
export { MissingKeysError } from './keys.service.ts';

export { createKeysModule } from './keys.module.ts';
