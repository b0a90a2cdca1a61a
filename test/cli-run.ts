/**
 * Runs the `autofin` command line in the test's process, as bin/autofin.mjs runs it in its own: the same
 * `runCli` (src/cli/run-cli.ts) with the arguments, the environment and stdin, its output captured. Only
 * a terminal needs a real process (src/cli/operators-cli.test.ts), and one smoke test runs the command
 * itself (test/e2e/cli-process.test.ts).
 */
import { runCli } from '../src/cli/index.ts';
import { adminToken } from './helper.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `autofin ARGS` against the service at `url`, with the admin token unless `env` says otherwise; `stdin`
 * is what a script pipes in (nothing and not a terminal when absent).
 */
export async function runAutofin(
  url: string,
  args: readonly string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    { ...process.env, ADMIN_TOKEN: adminToken, AUTOFIN_URL: url, ...env },
    {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      passwordInput: {
        interactive: false,
        readAll: async () => stdin ?? '',
        askHidden: async () => undefined,
      },
      progress: { interactive: false, write: (text) => (stderr += text) },
      stderrIsTerminal: false,
    },
  );
  return { code, stdout, stderr };
}
