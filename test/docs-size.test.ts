/**
 * docs/performance.md is a reference (the method, one table of targets with the latest figure and its
 * date, how to reproduce), not a record of runs: those are in git's history. It stays under 150 lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const limit = 150;

test(`docs/performance.md is under ${limit} lines`, () => {
  const lines = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8')
    .trimEnd()
    .split('\n').length;
  assert.ok(lines < limit, `docs/performance.md has ${lines} lines: keep the reference, leave the history to git`);
});
