/** What other modules use of the console module. */
export { createConsoleModule } from './console.module.ts';
