/**
 * The build `npm start` runs (scripts/build.mjs): what dist/ must hold beside the compiled modules,
 * and that a current build is not compiled again at every start.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, serviceArgs } from './service-entry.ts';

const inRoot = (...parts: string[]) => join(projectRoot, ...parts);

before(() => {
  serviceArgs(); // brings the build up to date, as the whole-process tests do
});

test('dist/ holds the entry, every migration and the console stylesheet, as in src/', () => {
  assert.ok(existsSync(inRoot('dist', 'main.js')));
  for (const dir of [['db', 'migrations'], ['console', 'assets']]) {
    const files = readdirSync(inRoot('src', ...dir));
    assert.ok(files.length > 0);
    assert.deepEqual(readdirSync(inRoot('dist', ...dir)).sort(), files.sort());
    for (const file of files) {
      assert.deepEqual(readFileSync(inRoot('dist', ...dir, file)), readFileSync(inRoot('src', ...dir, file)), file);
    }
  }
});

test('a build newer than every source is not compiled again', () => {
  const stamp = inRoot('dist', '.built');
  const before = statSync(stamp).mtimeMs;
  const out = execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: projectRoot, encoding: 'utf8' });
  assert.equal(out, '');
  assert.equal(statSync(stamp).mtimeMs, before);
});
