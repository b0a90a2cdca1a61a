/**
 * Chromium for the browser tests, driven by playwright-core: found at `CHROMIUM_PATH` or /usr/bin/chromium.
 * When it is missing the browser tests are skipped with the reason printed, unless `BROWSER_TESTS=required`
 * (CI), where they run and fail on the launch.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const defaultChromiumPath = '/usr/bin/chromium';

export interface ChromiumAvailability {
  executablePath: string;
  /** The reason to skip the browser tests, or false to run them. */
  skip: string | false;
}

/** Where Chromium is, and whether the browser tests run (pass `{ skip }` to `describe`). */
export function chromiumAvailability(env: Record<string, string | undefined> = process.env): ChromiumAvailability {
  const executablePath = env.CHROMIUM_PATH || defaultChromiumPath;
  if (existsSync(executablePath) || env.BROWSER_TESTS === 'required') return { executablePath, skip: false };
  return {
    executablePath,
    skip: `Chromium not found at ${executablePath}: browser tests skipped (set CHROMIUM_PATH, or BROWSER_TESTS=required to fail instead)`,
  };
}

/** The availability of this run, with the skip reason printed once so it shows outside the TAP output too. */
export const browserTests: ChromiumAvailability = chromiumAvailability();
if (browserTests.skip) process.stderr.write(`${browserTests.skip}\n`);

/** A headless Chromium; rejects with where it was looked for when it cannot start. */
export async function launchChromium(executablePath = browserTests.executablePath): Promise<Browser> {
  try {
    return await chromium.launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  } catch (error) {
    throw new Error(`Chromium did not start from ${executablePath} (CHROMIUM_PATH): ${(error as Error).message}`, {
      cause: error,
    });
  }
}
