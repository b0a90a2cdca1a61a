/** What other modules use of the console module. */
export { consolePlugin } from './console.plugin.ts';
export { createConsoleModule } from './console.module.ts';
