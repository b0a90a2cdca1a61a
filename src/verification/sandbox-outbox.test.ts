import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxOutbox, sandboxOutboxFile } from './sandbox-outbox.ts';

const minute = 60_000;

function lines(dataDir: string): { at: string; channel: string; to: string; body?: string }[] {
  return readFileSync(join(dataDir, sandboxOutboxFile), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

function sms(i: number) {
  return { to: `+5255000000${String(i).padStart(2, '0')}`, body: `Tu PIN de autofin es ${String(100000 + i)}` };
}

describe('the sandbox outbox keeps recent messages only', () => {
  test('each message is one line a developer can read the PIN from, in a file only the owner reads', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const outbox = sandboxOutbox(dataDir, { keepMinutes: 60, maxBytes: 1 << 20 });
    outbox.sms(sms(1));
    outbox.email({ to: 'ana@example.com', subject: 'PIN', text: 'Tu PIN es 123456' });
    outbox.close();
    const written = lines(dataDir);
    assert.deepEqual(written.map((l) => [l.channel, l.to]), [['SMS', '+525500000001'], ['EMAIL', 'ana@example.com']]);
    assert.match(written[0].body!, /100001/);
    assert.equal(statSync(join(dataDir, sandboxOutboxFile)).mode & 0o777, 0o600);
  });

  test('messages older than keepMinutes are dropped when a message is written and by prune', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    let nowMs = Date.parse('2026-01-15T12:00:00Z');
    const outbox = sandboxOutbox(dataDir, { keepMinutes: 10, maxBytes: 1 << 20, now: () => nowMs });
    outbox.sms(sms(1));
    nowMs += 5 * minute;
    outbox.sms(sms(2));
    nowMs += 6 * minute;
    outbox.sms(sms(3));
    assert.deepEqual(lines(dataDir).map((l) => l.to), ['+525500000002', '+525500000003'], 'the first is 11 minutes old');
    nowMs += 20 * minute;
    outbox.prune();
    assert.deepEqual(lines(dataDir), [], 'nothing is recent any more');
    outbox.close();
  });

  test('the file never exceeds maxBytes: the oldest messages go first', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const maxBytes = 4096;
    const outbox = sandboxOutbox(dataDir, { keepMinutes: 60, maxBytes });
    for (let i = 0; i < 200; i++) {
      outbox.sms(sms(i % 100));
      assert.ok(statSync(join(dataDir, sandboxOutboxFile)).size <= maxBytes, `after message ${i}`);
    }
    outbox.close();
    const kept = lines(dataDir);
    assert.ok(kept.length >= 10, `${kept.length} messages kept`);
    assert.equal(kept.at(-1)!.to, sms(199 % 100).to, 'the newest message is kept');
  });

  test('a start drops what an earlier run left that is no longer recent, and unreadable lines', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const now = Date.now();
    const old = JSON.stringify({ at: new Date(now - 2 * 60 * minute).toISOString(), channel: 'SMS', to: '+525511111111', body: 'PIN 111111' });
    const recent = JSON.stringify({ at: new Date(now - minute).toISOString(), channel: 'SMS', to: '+525522222222', body: 'PIN 222222' });
    writeFileSync(join(dataDir, sandboxOutboxFile), `${old}\nnot json\n${recent}\n`);
    sandboxOutbox(dataDir, { keepMinutes: 60, maxBytes: 1 << 20 }).close();
    assert.deepEqual(lines(dataDir).map((l) => l.to), ['+525522222222']);
  });
});
