/**
 * The console's sign-in limits hold in any 15 minutes (docs/console.md): attempts on both sides of a
 * clock boundary count together, and with REDIS_URL two instances count one e-mail's attempts together.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buildTestApp, createManualClock, type TestApp } from '../../test/helper.ts';
import { consoleClient, consoleOperator } from '../../test/console-client.ts';
import { signInLimits } from './console-sign-in.ts';

const password = 'correct horse battery';
const minute = 60_000;

describe('console sign-in limits in a sliding window', () => {
  const clock = createManualClock(new Date('2026-11-28T11:59:00Z'));
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  test('failures on both sides of a quarter hour count together; the window slides past them', async () => {
    const email = await consoleOperator(t.app, t.admin, 'analyst', password);
    const attempt = (wrong = true) => consoleClient(t.app).signIn(email, wrong ? 'wrong password' : password);
    // Five failures before 12:00, five after: one window of 15 minutes holds all ten.
    for (let i = 0; i < signInLimits.perEmail / 2; i++) assert.equal((await attempt()).statusCode, 401);
    clock.set(new Date('2026-11-28T12:00:30Z'));
    for (let i = 0; i < signInLimits.perEmail / 2; i++) assert.equal((await attempt()).statusCode, 401);
    const refused = await attempt(false);
    assert.equal(refused.statusCode, 429, 'the eleventh, the right password included, waits');
    // Allowed again once the first five have left the window (11:59 + 15 min), not before.
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter > 13 * 60 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    clock.set(new Date('2026-11-28T12:13:30Z'));
    assert.equal((await attempt(false)).statusCode, 429);
    clock.advance(minute);
    assert.equal((await attempt(false)).statusCode, 303);
  });
});

describe('console sign-in limits across two instances', { skip: !process.env.REDIS_URL && 'needs REDIS_URL' }, () => {
  let first: TestApp;
  let second: TestApp;
  before(async () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    first = await buildTestApp({ env });
    second = await buildTestApp({ env, database: first.database });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  test('failures through either instance count together, through Redis', async () => {
    const email = await consoleOperator(first.app, first.admin, 'analyst', password);
    // Redis outlives this run: an address of its own keeps earlier runs' attempts out of the count.
    const remoteAddress = `2001:db8::${randomBytes(6).toString('hex').match(/..../g)!.join(':')}`;
    for (let i = 0; i < signInLimits.perEmail; i++) {
      const app = i % 2 === 0 ? first.app : second.app;
      assert.equal(
        (await consoleClient(app, { remoteAddress }).signIn(email, 'wrong password')).statusCode,
        401,
        `attempt ${i + 1}`,
      );
    }
    for (const app of [first.app, second.app]) {
      assert.equal((await consoleClient(app, { remoteAddress }).signIn(email, password)).statusCode, 429);
    }
  });
});
