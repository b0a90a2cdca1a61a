/**
 * In the sandbox, the `log` SMS and e-mail providers deliver to a file instead of a phone: each
 * message is appended to DATA_DIR/sandbox-outbox.jsonl (readable only by the service's user), so a
 * developer can read the PIN. The service log itself never carries the PIN or the recipient.
 *
 * The file keeps recent messages only: those of the last `keepMinutes`, in at most `maxBytes`.
 * Older ones are dropped at start, as messages are written, and once a minute (the file is
 * rewritten whole and renamed into place, so a reader never sees half of it).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmailMessage, SmsMessage } from '../providers/ports.ts';

export interface SandboxOutboxOptions {
  keepMinutes: number;
  maxBytes: number;
  now?: () => number;
}

export const sandboxOutboxFile = 'sandbox-outbox.jsonl';

export function sandboxOutbox(dataDir: string, { keepMinutes, maxBytes, now = Date.now }: SandboxOutboxOptions) {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, sandboxOutboxFile);
  const keepMs = keepMinutes * 60_000;
  let size = 0;
  let oldestMs = Infinity;

  /** Rewrites the file with the messages still recent, newest kept first, in at most `budget` bytes. */
  const prune = (budget: number) => {
    if (!existsSync(file)) return ((size = 0), (oldestMs = Infinity), undefined);
    const cutoff = now() - keepMs;
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const kept: string[] = [];
    let bytes = 0;
    for (let i = lines.length - 1; i >= 0; i--) {
      const at = atOf(lines[i]);
      const length = Buffer.byteLength(lines[i]) + 1;
      if (at < cutoff || bytes + length > budget) break;
      kept.unshift(lines[i]);
      bytes += length;
    }
    if (kept.length !== lines.length) {
      const temporary = `${file}.tmp`;
      writeFileSync(temporary, kept.map((line) => `${line}\n`).join(''), { mode: 0o600 });
      renameSync(temporary, file);
    }
    size = bytes;
    oldestMs = kept.length ? atOf(kept[0]) : Infinity;
  };

  const append = (entry: object) => {
    const line = `${JSON.stringify({ at: new Date(now()).toISOString(), ...entry })}\n`;
    const length = Buffer.byteLength(line);
    // Pruned to three quarters of the budget, so the file is not rewritten at every message.
    if (size + length > maxBytes || oldestMs < now() - keepMs) prune(Math.floor((maxBytes * 3) / 4) - length);
    appendFileSync(file, line, { mode: 0o600 });
    size += length;
    if (oldestMs === Infinity) oldestMs = now();
  };

  prune(maxBytes);
  const timer = setInterval(() => {
    if (oldestMs < now() - keepMs) prune(maxBytes);
  }, 60_000);
  timer.unref();

  return {
    sms: (message: SmsMessage) => append({ channel: 'SMS', to: message.to, body: message.body }),
    email: (message: EmailMessage) => append({ channel: 'EMAIL', to: message.to, subject: message.subject, text: message.text }),
    /** Drops the messages no longer recent now (also done once a minute). */
    prune: () => prune(maxBytes),
    /** Stops the minute timer. */
    close: () => clearInterval(timer),
  };
}

/** The time of a line; an unreadable line counts as old. */
function atOf(line: string): number {
  try {
    const at = Date.parse((JSON.parse(line) as { at?: string }).at ?? '');
    return Number.isNaN(at) ? -Infinity : at;
  } catch {
    return -Infinity;
  }
}

/** The size of the outbox file, for tests. */
export function outboxSize(dataDir: string): number {
  const file = join(dataDir, sandboxOutboxFile);
  return existsSync(file) ? statSync(file).size : 0;
}
