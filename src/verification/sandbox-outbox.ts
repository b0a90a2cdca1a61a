/**
 * In the sandbox, the `log` SMS and e-mail providers deliver to a file instead of a phone: each
 * message is appended to DATA_DIR/sandbox-outbox.jsonl (readable only by the service's user), so a
 * developer can read the PIN. The service log itself never carries the PIN or the recipient.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EmailMessage, SmsMessage } from '../providers/ports.ts';

export function sandboxOutbox(dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'sandbox-outbox.jsonl');
  const append = (entry: object) => appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`, { mode: 0o600 });
  return {
    sms: (message: SmsMessage) => append({ channel: 'SMS', to: message.to, body: message.body }),
    email: (message: EmailMessage) => append({ channel: 'EMAIL', to: message.to, subject: message.subject, text: message.text }),
  };
}
