import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromiumAvailability, launchChromium } from './chromium.ts';

const missing = '/nonexistent/chromium';

test('without Chromium the browser tests are skipped with the reason, unless BROWSER_TESTS=required', () => {
  const skipped = chromiumAvailability({ CHROMIUM_PATH: missing });
  assert.equal(skipped.executablePath, missing);
  assert.match(String(skipped.skip), /^Chromium not found at \/nonexistent\/chromium: browser tests skipped/);
  assert.deepEqual(chromiumAvailability({ CHROMIUM_PATH: missing, BROWSER_TESTS: 'required' }), {
    executablePath: missing,
    skip: false,
  });
  assert.equal(chromiumAvailability({}).executablePath, '/usr/bin/chromium');
});

test('when required but missing, the launch fails saying where Chromium was looked for', async () => {
  await assert.rejects(
    launchChromium(missing),
    /Chromium did not start from \/nonexistent\/chromium \(CHROMIUM_PATH\)/,
  );
});
