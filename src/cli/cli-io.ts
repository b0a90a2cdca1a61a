/** Where a CLI command reads and writes: the process's streams, or a test's buffers. */
import type { PasswordInput } from './operator-password.ts';
import type { ProgressOutput } from './keys-reencrypt.ts';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch?: typeof fetch;
  /** Where an operator's first password is typed or piped (`operators create --email`). */
  passwordInput?: PasswordInput;
  /** Where long commands show their progress (stderr; a bar when it is a terminal). */
  progress?: ProgressOutput;
  /** stderr is a terminal: progress bars are drawn there. */
  stderrIsTerminal?: boolean;
}
