/**
 * What the `autofin` command reads from its stdin: a hidden prompt on a terminal (raw mode, nothing
 * echoed; Backspace erases, Ctrl-C cancels) or the whole of a piped stdin. Prompts go to stderr, so
 * stdout stays the JSON answer.
 */
import type { PasswordInput } from './operator-password.ts';

/** The part of a terminal's stdin the prompt uses (process.stdin when it is a TTY). */
export interface RawInput {
  setRawMode(raw: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  off(event: 'data', listener: (chunk: string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

const controlC = '\u0003';
const controlD = '\u0004';
const backspaces = new Set(['\u007f', '\b']);

/** One line typed at the terminal, never echoed; undefined when cancelled with Ctrl-C. */
export function askHidden(
  question: string,
  input: RawInput,
  write: (text: string) => void,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let typed: string[] = [];
    const finish = (answer: string | undefined) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      write('\n');
      resolve(answer);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || (char === controlD && typed.length === 0)) return finish(typed.join(''));
        if (char === controlC) return finish(undefined);
        if (backspaces.has(char)) typed = typed.slice(0, -1);
        else if (char >= ' ') typed.push(char);
      }
    };
    // Raw mode first: what is typed as soon as the question shows is already kept off the screen.
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
    write(question);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The process's own stdin and stderr as the password's input. */
export function processPasswordInput(): PasswordInput {
  const stdin = process.stdin;
  return {
    interactive: stdin.isTTY === true,
    readAll: () => readAll(stdin),
    askHidden: (question) => askHidden(question, stdin, (text) => process.stderr.write(text)),
  };
}
