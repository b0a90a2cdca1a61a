import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { projectFile, projectRoot } from './project-files.ts';

test("the project's folder is the one holding its package.json, two folders above this module", () => {
  assert.equal(projectRoot.href, new URL('../../', import.meta.url).href);
  assert.equal(JSON.parse(readFileSync(new URL('package.json', projectRoot), 'utf8')).name, 'autofin');
});

test('the files the service reads at run time are found from the project folder', () => {
  for (const path of [
    'src/db/migrations/001_foundation.sql',
    'src/console/assets/console.css',
    'catalog-data/mx-zip-codes.csv.gz',
    'config/prequalification.json',
    'docs/sandbox.md',
  ]) {
    assert.ok(existsSync(projectFile(path)), path);
  }
  assert.equal(
    fileURLToPath(projectFile('catalog-data/')),
    fileURLToPath(new URL('../../catalog-data/', import.meta.url)),
  );
});
