/**
 * The error catalogue is closed and documented: every status and code an AppError of the service is made
 * with (src/http/app-error.ts) is a row of docs/api.md's table and is named by the served OpenAPI
 * document's ErrorResponse, so a partner finds every code it can get.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildTestApp, api } from '../../test/helper.ts';

const source = readFileSync(new URL('./app-error.ts', import.meta.url), 'utf8');
const made = [...source.matchAll(/new AppError\(\s*(\d{3}),\s*(\d{3,5})\b/g)].map(([, status, code]) => ({
  status: Number(status),
  code: Number(code),
}));
const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

test('every code of the error catalogue is a row of docs/api.md’s table, with its status', () => {
  assert.ok(made.length >= 25, `${made.length} codes found`);
  for (const { status, code } of made) {
    assert.match(docs, new RegExp(`^\\| ${status} \\| ${code} \\|`, 'm'), `${status} / ${code} in docs/api.md`);
  }
});

test('every code of the error catalogue is named by the served ErrorResponse, with its status', async () => {
  const t = await buildTestApp();
  try {
    const document = (await t.app.inject({ method: 'GET', url: `${api}/openapi.json` })).json();
    const described: string = document.components.schemas.ErrorResponse.properties.code.description;
    for (const { status, code } of made) {
      const group = new RegExp(`(?:^|; |: )([0-9X, ]*\\b${code}\\b[0-9X, ]*)\\(${status}\\)`);
      assert.match(described, group, `${status} / ${code} in ErrorResponse.code`);
    }
  } finally {
    await t.close();
  }
});
