/**
 * The browser harness can fail: two tiny pages served under `Content-Security-Policy: default-src 'self'`,
 * one accessible and one with an unlabelled input and low-contrast text. axe passes the first and reports
 * the second as serious; the screenshots are written.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, assertAccessible } from './accessibility.ts';
import { browserTests, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';

const layout = (title: string, body: string) => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/site.css">
<script>window.inlineScriptRan = true;</script></head>
<body><main>${body}</main><script src="/marker.js"></script></body></html>`;

const files: Record<string, { type: string; body: string }> = {
  '/accessible': {
    type: 'text/html; charset=utf-8',
    body: layout(
      'Entrar',
      `<h1>Entrar</h1><form><label for="email">Correo electrónico</label>
      <input id="email" name="email" type="email" autocomplete="email"><button type="submit">Entrar</button></form>`,
    ),
  },
  '/inaccessible': {
    type: 'text/html; charset=utf-8',
    body: layout(
      'Entrar',
      `<h1>Entrar</h1><p class="faint">Escribe tu correo para continuar.</p>
      <form><input name="email" type="text"><button type="submit">Entrar</button></form>`,
    ),
  },
  // The page's only styles: an inline style would be blocked by the policy, a stylesheet from 'self' is not.
  '/site.css': {
    type: 'text/css',
    body: 'body { font: 16px sans-serif; color: #111; background: #fff } .faint { color: #c8c8c8 }',
  },
  '/marker.js': { type: 'text/javascript', body: 'window.ownScriptRan = true;' },
};

describe('the browser test harness', { skip: browserTests.skip }, () => {
  let server: Server;
  let base: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    server = createServer((request, response) => {
      const file = files[request.url ?? ''];
      if (!file) return void response.writeHead(404).end();
      response
        .writeHead(200, { 'content-type': file.type, 'content-security-policy': "default-src 'self'" })
        .end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await launchChromium();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  test("the pages' policy is enforced: the inline script is blocked, the page's own script runs", async () => {
    await page.goto(`${base}/accessible`);
    assert.equal(await page.evaluate('window.inlineScriptRan === true'), false);
    assert.equal(await page.evaluate('window.ownScriptRan === true'), true);
  });

  test('axe runs under that policy and finds nothing serious on the accessible page', async () => {
    await page.goto(`${base}/accessible`);
    const violations = await assertAccessible(page);
    assert.deepEqual(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      [],
    );
  });

  test('axe reports the unlabelled input and the low-contrast text, and the check fails listing them', async () => {
    await page.goto(`${base}/inaccessible`);
    const found = Object.fromEntries((await accessibilityViolations(page)).map((v) => [v.id, v]));
    assert.equal(found['color-contrast']?.impact, 'serious', Object.keys(found).join(', '));
    assert.ok(['serious', 'critical'].includes(found.label?.impact ?? ''), Object.keys(found).join(', '));
    assert.match(found['color-contrast'].nodes[0].html, /class="faint"/);

    await assert.rejects(assertAccessible(page, 'inaccessible page'), (error: Error) => {
      assert.match(error.message, /^inaccessible page: \d+ serious or critical accessibility violation\(s\):\n/);
      assert.match(
        error.message,
        /\[serious\] color-contrast: .*\n {4}- p: <p class="faint">.*\n {6}Fix any of the following: Element has insufficient color contrast/,
      );
      assert.match(error.message, /\[(serious|critical)\] label: .*\n {4}- input/);
      return true;
    });
  });

  test('a screenshot is a full-page PNG at 1280 px, and at 390 px when asked; none unless wanted', async () => {
    await page.goto(`${base}/accessible`);
    for (const name of ['harness-accessible', 'harness-accessible-phone']) {
      rmSync(new URL(`../../test-output/screenshots/${name}.png`, import.meta.url), { force: true });
    }
    assert.deepEqual(await screenshot(page, 'harness-accessible', { phone: true, write: false }), []);
    assert.equal(existsSync(new URL('../../test-output/screenshots/harness-accessible.png', import.meta.url)), false);
    const written = await screenshot(page, 'harness-accessible', { phone: true, write: true });
    assert.equal(written.length, 2);
    const widths = written.map((file) => {
      assert.ok(existsSync(file), file);
      const png = readFileSync(file);
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      return png.readUInt32BE(16); // the IHDR chunk's width
    });
    assert.deepEqual(widths, [1280, 390]);
    assert.match(written[0], /test-output\/screenshots\/harness-accessible\.png$/);
    await assert.rejects(screenshot(page, '../escape'), /letters, digits/);
  });
});
