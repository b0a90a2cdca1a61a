/** The `autofin` command line: bin/autofin.mjs runs autofin.ts; a caller with its own streams runs runCli. */
export { runCli } from './run-cli.ts';
