/**
 * The first password of an operator created with `autofin operators create --email E`: typed twice at a
 * terminal without echo (Enter on an empty prompt generates one), read from stdin with
 * `--password-stdin`, or generated when stdin is not a terminal. Checked before the admin API is called.
 */
import { generatePassword } from '../operators/index.ts';

/** The admin API refuses shorter passwords (docs/lender-api.md); the CLI refuses them first. */
export const minimumPasswordLength = 12;

export { generatePassword };

/** Where the password comes from: stdin (`--password-stdin`), else a terminal prompt or a generated one. */
export type PasswordSource = 'stdin' | 'prompt-or-generate';

export interface PasswordInput {
  /** True when stdin is a terminal a person types at. */
  interactive: boolean;
  /** Everything on stdin, to its end. */
  readAll(): Promise<string>;
  /** Asks on the terminal without echoing what is typed; undefined when the person cancels (Ctrl-C). */
  askHidden(question: string): Promise<string | undefined>;
}

export type FirstPassword = { ok: true; password: string; generated: boolean } | { ok: false; message: string };

const tooShort = (password: string): FirstPassword => ({
  ok: false,
  message: `the password has ${[...password].length} characters: it needs at least ${minimumPasswordLength}`,
});

function accepted(password: string): FirstPassword {
  return [...password].length < minimumPasswordLength ? tooShort(password) : { ok: true, password, generated: false };
}

export async function firstPassword(source: PasswordSource, input: PasswordInput): Promise<FirstPassword> {
  if (source === 'stdin') {
    // One line, as `echo`, `printf` or a secrets manager write it: the final line break is not part of it.
    return accepted((await input.readAll()).replace(/\r?\n$/, ''));
  }
  if (!input.interactive) return { ok: true, password: generatePassword(), generated: true };
  const typed = await input.askHidden('Password for the new operator (Enter to generate one): ');
  if (typed === undefined) return { ok: false, message: 'cancelled' };
  if (typed === '') return { ok: true, password: generatePassword(), generated: true };
  const checked = accepted(typed);
  if (!checked.ok) return checked;
  const again = await input.askHidden('The same password again: ');
  if (again === undefined) return { ok: false, message: 'cancelled' };
  return again === typed ? checked : { ok: false, message: 'the two passwords differ' };
}
