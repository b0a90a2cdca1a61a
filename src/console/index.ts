/** What other modules use of the console module. */
export { createConsoleSessionsRepository } from './console-sessions.repository.ts';
export { createConsoleSessions } from './console-sessions.ts';
export { createConsoleSignIn } from './console-sign-in.ts';
export { consolePlugin } from './console.plugin.ts';
