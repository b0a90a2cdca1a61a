import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey, randomBytes } from 'node:crypto';
import {
  checkPin,
  generatePin,
  hashPin,
  maxFailedAttempts,
  maxSendsPerWindow,
  pinValidityMs,
  sendThrottle,
  sendWindowMs,
  toE164,
  type PendingPin,
} from './pin.ts';

const key = createSecretKey(randomBytes(32));
const leadId = '0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a';
const sentAt = new Date('2026-01-15T12:00:00Z');
const at = (ms: number) => new Date(sentAt.getTime() + ms);
const right = hashPin(key, leadId, '482913');
const wrong = hashPin(key, leadId, '482914');
const pending = (over: Partial<PendingPin> = {}): PendingPin => ({
  pinHash: right,
  expiresAt: at(pinValidityMs),
  failedAttempts: 0,
  verifiedAt: null,
  ...over,
});

test('the PIN rules are the documented ones: 10 minutes, 5 wrong tries, 5 sends per 10 minutes', () => {
  assert.equal(pinValidityMs, 10 * 60 * 1000);
  assert.equal(maxFailedAttempts, 5);
  assert.equal(maxSendsPerWindow, 5);
  assert.equal(sendWindowMs, 10 * 60 * 1000);
});

test('checkPin answers each case with its reason, and only a wrong PIN counts as a try', () => {
  const cases: [string, PendingPin | undefined, string, Date, ReturnType<typeof checkPin>][] = [
    ['no PIN pending', undefined, right, at(0), { ok: false, reason: 'NO_PIN_PENDING', countsAsTry: false }],
    ['the right PIN in time', pending(), right, at(1000), { ok: true }],
    ['a wrong PIN in time', pending(), wrong, at(1000), { ok: false, reason: 'PIN_MISMATCH', countsAsTry: true }],
    ['the right PIN after 4 wrong tries', pending({ failedAttempts: 4 }), right, at(1000), { ok: true }],
    [
      'the right PIN after 5 wrong tries',
      pending({ failedAttempts: 5 }),
      right,
      at(1000),
      { ok: false, reason: 'PIN_VOID', countsAsTry: false },
    ],
    [
      'a wrong PIN after 5 wrong tries',
      pending({ failedAttempts: 5 }),
      wrong,
      at(1000),
      { ok: false, reason: 'PIN_VOID', countsAsTry: false },
    ],
    [
      'the right PIN once expired',
      pending(),
      right,
      at(pinValidityMs + 1),
      { ok: false, reason: 'PIN_EXPIRED', countsAsTry: false },
    ],
    [
      'a wrong PIN once expired',
      pending(),
      wrong,
      at(pinValidityMs + 1),
      { ok: false, reason: 'PIN_EXPIRED', countsAsTry: false },
    ],
    [
      'a void PIN once expired',
      pending({ failedAttempts: 5 }),
      right,
      at(pinValidityMs + 1),
      { ok: false, reason: 'PIN_VOID', countsAsTry: false },
    ],
    [
      'a hash of another length',
      pending(),
      'short',
      at(1000),
      { ok: false, reason: 'PIN_MISMATCH', countsAsTry: true },
    ],
  ];
  for (const [what, pin, given, now, expected] of cases) assert.deepEqual(checkPin(pin, given, now), expected, what);
});

test('a PIN is good until just before its expiry and expired at the very millisecond', () => {
  assert.deepEqual(checkPin(pending(), right, at(pinValidityMs - 1)), { ok: true });
  assert.deepEqual(checkPin(pending(), right, at(pinValidityMs)), {
    ok: false,
    reason: 'PIN_EXPIRED',
    countsAsTry: false,
  });
});

test(
  'a verified PIN can confirm again (a retry after a bureau ' +
    'failure) whatever its age, and wrong tries never void it',
  () => {
    const verified = pending({ verifiedAt: at(60_000) });
    assert.deepEqual(checkPin(verified, right, at(pinValidityMs * 50)), { ok: true });
    assert.deepEqual(checkPin(verified, wrong, at(pinValidityMs * 50)), {
      ok: false,
      reason: 'PIN_MISMATCH',
      countsAsTry: false,
    });
    // A verified lead gets no new PIN: a void one would leave it without a report for good.
    assert.deepEqual(checkPin({ ...verified, failedAttempts: 5 }, right, at(1000)), { ok: true });
    assert.deepEqual(checkPin({ ...verified, failedAttempts: 5 }, wrong, at(1000)), {
      ok: false,
      reason: 'PIN_MISMATCH',
      countsAsTry: false,
    });
  },
);

test('sendThrottle lets 5 sends through in any 10 minutes and says when the 6th may go', () => {
  const s = 1000;
  const minute = 60 * s;
  const cases: [string, number[], number, number][] = [
    ['no send yet', [], 0, 0],
    ['4 sends just now', [0, 0, 0, 0], 0, 0],
    ['5 sends at once, asked at once', [0, 0, 0, 0, 0], 0, 600],
    ['5 sends a minute apart, asked after the last', [0, 1, 2, 3, 4].map((m) => m * minute), 4 * minute, 360],
    ['5 sends, the oldest just leaving the window', [0, 1, 2, 3, 4].map((m) => m * minute), 10 * minute, 0],
    ['5 sends, 1 ms before the oldest leaves', [0, 1, 2, 3, 4].map((m) => m * minute), 10 * minute - 1, 1],
    ['5 sends, half a second before the oldest leaves: rounded up', [0, 0, 0, 0, 0], 10 * minute - 500, 1],
    ['6 sends older than the window', [0, 0, 0, 0, 0, 0], 10 * minute, 0],
    ['7 sends: the 5th newest decides', [0, 1, 2, 3, 4, 5, 6].map((m) => m * minute), 7 * minute, 300],
    ['unsorted input', [4, 0, 3, 1, 2].map((m) => m * minute), 5 * minute, 300],
  ];
  for (const [what, sends, now, expected] of cases) {
    assert.equal(sendThrottle(sends.map(at), at(now)), expected, what);
  }
});

test('generatePin gives 6 digits, leading zeros kept, and does not repeat itself', () => {
  const pins = Array.from({ length: 2000 }, generatePin);
  for (const pin of pins) assert.match(pin, /^[0-9]{6}$/);
  assert.ok(new Set(pins).size > 1900, `${new Set(pins).size} distinct PINs out of 2000`);
  assert.ok(
    pins.some((pin) => pin.startsWith('0')),
    'PINs below 100000 keep their leading zero',
  );
});

test('hashPin differs per lead, per PIN and per key, and is stable for the same inputs', () => {
  const other = 'a7c1e6f0-2b1e-4f7a-9a58-6c3b9d0e1f22';
  assert.equal(hashPin(key, leadId, '482913'), hashPin(key, leadId, '482913'));
  assert.notEqual(hashPin(key, leadId, '482913'), hashPin(key, other, '482913'));
  assert.notEqual(hashPin(key, leadId, '482913'), hashPin(key, leadId, '482914'));
  assert.notEqual(hashPin(key, leadId, '482913'), hashPin(createSecretKey(randomBytes(32)), leadId, '482913'));
  assert.ok(!hashPin(key, leadId, '482913').includes('482913'));
});

test('toE164 prefixes the Mexican country code', () => {
  assert.equal(toE164('5512345678'), '+525512345678');
});
