import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { logDestination, logFlushMs, logWriteBytes, loggerOptions } from './logging.ts';

const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

test("log lines are written a few KiB at a time, a quiet instance's within the flush interval", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-log-'));
  const file = join(dir, 'out.log');
  const destination = logDestination(file);
  await new Promise((resolve) => destination.once('ready', resolve));
  try {
    const logger = pino(loggerOptions('info'), destination);
    logger.info({ leadId: 'a' }, 'request completed');
    assert.deepEqual(linesOf(file), [], 'one short line waits for more');
    await sleep(logFlushMs * 4);
    assert.equal(JSON.parse(linesOf(file)[0]).leadId, 'a', 'and is written within the flush interval');

    // A busy instance: once the buffer holds the write size, the lines go out without waiting.
    const line = 'x'.repeat(200);
    const count = Math.ceil((logWriteBytes * 3) / line.length);
    for (let i = 0; i < count; i++) logger.info({ i }, line);
    await sleep(logFlushMs / 5);
    const written = linesOf(file).length - 1;
    assert.ok(written > 0, `${written} of ${count} lines written before the flush interval`);

    logger.info('stopping');
    destination.flushSync();
    assert.equal(JSON.parse(linesOf(file).at(-1)!).msg, 'stopping', 'a graceful stop writes what is buffered');
  } finally {
    destination.end();
    rmSync(dir, { recursive: true, force: true });
  }
});
