/**
 * Volume tests run at two sizes (README, "Test"): `npm test` at one that keeps each assertion meaningful and
 * the loop in minutes, `npm run test:reliability` at the full one (AUTOFIN_TEST_VOLUME=full, set by
 * scripts/run-tests.mjs for the files it lists as volume tests).
 */
export const fullVolume = process.env.AUTOFIN_TEST_VOLUME === 'full';

/** `small` in `npm test`, `full` in `npm run test:reliability`. */
export const atVolume = <T>(small: T, full: T): T => (fullVolume ? full : small);
