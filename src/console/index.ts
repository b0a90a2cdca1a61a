/** What other modules use of the console module. */
export { consolePlugin } from './console.plugin.ts';
export { createConsoleModule, type ConsoleModule } from './console.module.ts';
