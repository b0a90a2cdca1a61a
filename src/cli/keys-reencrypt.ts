/**
 * `autofin keys reencrypt`: calls POST /admin/keys/reencrypt until no value is left under a previous
 * key, showing progress on stderr (a bar on a terminal, one plain line per call otherwise), so stdout
 * stays the JSON answer.
 */
import type { AdminClient, AdminResult } from './admin-client.ts';

export interface ProgressOutput {
  /** A terminal: the bar is redrawn in place. */
  interactive: boolean;
  write: (text: string) => void;
}

const barWidth = 30;
// A call that re-encrypts nothing while values remain: another instance holds those rows for a moment
// (it is re-encrypting them too), or no configured key opens them. Tried again a few times, then given up.
const idleRetries = 5;
const idleWaitMs = 500;

function bar(done: number, total: number): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * barWidth);
  const drawn = `${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}`;
  return `\r[${drawn}] ${Math.floor(share * 100)}% ${done}/${total} values`;
}

export async function reencryptAll(
  client: AdminClient,
  limit: number | undefined,
  progress: ProgressOutput,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<AdminResult> {
  let total = 0;
  let idle = 0;
  for (;;) {
    const result = await client.reencryptKeys(limit);
    if (!result.ok) return result;
    const { reencrypted, remaining } = result.body as { reencrypted: number; remaining: number };
    total += reencrypted;
    if (progress.interactive) progress.write(bar(total, total + remaining) + (remaining === 0 ? '\n' : ''));
    else progress.write(`reencrypted ${total} values, ${remaining} remaining\n`);
    if (remaining === 0) return { ok: true, body: { reencrypted: total, remaining: 0 } };
    idle = reencrypted === 0 ? idle + 1 : 0;
    if (idle > idleRetries) {
      if (progress.interactive) progress.write('\n');
      return {
        ok: false,
        status: 0,
        body: {
          message:
            `${remaining} values remain that no call could re-encrypt: is another re-encryption running, ` +
            'or are values stored under a key that is not configured? See GET /admin/keys (autofin keys status).',
          reencrypted: total,
          remaining,
        },
      };
    }
    if (reencrypted === 0) await wait(idleWaitMs);
  }
}
