/**
 * Full-page screenshots of the browser tests, written to test-output/screenshots/NAME.png (git-ignored) at
 * 1280 px wide, and NAME-phone.png at 390 px wide when asked, when `TEST_SCREENSHOTS=1` is set: a PNG of a
 * whole page costs a fifth of a second of CPU, and a plain `npm test` has no one to look at them. The page
 * is sized to each width either way, so what a test reads at 390 px is read in the same layout. The page's
 * viewport is restored afterwards.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';

export const screenshotDir = new URL('../../test-output/screenshots/', import.meta.url).pathname;
export const desktopViewport = { width: 1280, height: 800 };
export const phoneViewport = { width: 390, height: 844 };
const wanted = process.env.TEST_SCREENSHOTS === '1';

/**
 * Writes the screenshots (when wanted, or `write` is true) and answers the paths written. `atPhoneWidth`
 * runs while the page is 390 px wide, before its screenshot there. The viewport is changed only when it
 * differs from the one a screenshot needs.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { phone?: boolean; atPhoneWidth?: () => Promise<void>; write?: boolean } = {},
): Promise<string[]> {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) throw new Error(`screenshot name "${name}": letters, digits, . _ - only`);
  mkdirSync(screenshotDir, { recursive: true });
  const before = page.viewportSize();
  const shots = [{ file: `${screenshotDir}${name}.png`, viewport: desktopViewport, phone: false }];
  if (options.phone) shots.push({ file: `${screenshotDir}${name}-phone.png`, viewport: phoneViewport, phone: true });
  const write = options.write ?? wanted;
  const sizeTo = async (viewport: { width: number; height: number } | null) => {
    const now = page.viewportSize();
    if (viewport && (now?.width !== viewport.width || now?.height !== viewport.height))
      await page.setViewportSize(viewport);
  };
  try {
    for (const shot of shots) {
      await sizeTo(shot.viewport);
      if (shot.phone) await options.atPhoneWidth?.();
      if (write) await page.screenshot({ path: shot.file, fullPage: true });
    }
  } finally {
    await sizeTo(before);
  }
  return write ? shots.map((shot) => shot.file) : [];
}
