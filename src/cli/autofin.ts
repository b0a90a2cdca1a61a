/** The `autofin` command (bin/autofin.mjs runs this file through tsx). */
import { runCli } from './run-cli.ts';
import { processPasswordInput } from './terminal-input.ts';

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  passwordInput: processPasswordInput(),
  progress: { interactive: process.stderr.isTTY === true, write: (text) => process.stderr.write(text) },
  stderrIsTerminal: process.stderr.isTTY === true,
});
