import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';
import { vehicleColumns } from '../catalogs/catalog-file.ts';

const password = 'correct horse battery';

/** The import form as a browser sends it; `filename` "" is what a browser sends when no file was chosen. */
function upload(t: TestApp, browser: ConsoleClient, file: string, filename = 'catalogo.csv') {
  const boundary = 'formboundary5678';
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="_csrf"',
    '',
    browser.csrf(),
    `--${boundary}`,
    'Content-Disposition: form-data; name="kind"',
    '',
    'vehicles',
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; filename="${filename}"`,
    `Content-Type: ${filename ? 'text/csv' : 'application/octet-stream'}`,
    '',
    file,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.inject({
    method: 'POST',
    url: '/console/catalogs/import',
    payload: body,
    headers: { host: 'console.example.mx', cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

/** The page's notice, its text as shown. */
const notice = (body: string) => /<p class="notice error" role="alert">([^<]*)<\/p>/.exec(body)?.[1];

describe('operator console: a refused catalog file, in Spanish', () => {
  let t: TestApp;
  let admin: ConsoleClient;

  before(async () => {
    t = await buildTestApp();
    const email = await consoleOperator(t.app, t.admin, 'admin', password);
    admin = consoleClient(t.app);
    assert.equal((await admin.signIn(email, password)).statusCode, 303);
    await admin.get('/console/catalogs');
  });
  after(() => t.close());

  test('a short row names its line and the fields expected and found', async () => {
    const res = await upload(t, admin, [vehicleColumns.join(','), '2031,1,Nissan,2', ''].join('\n'));
    assert.equal(res.statusCode, 400, show(res));
    assert.equal(
      notice(res.body),
      'Archivo rechazado en la línea 2: se esperaban 8 campos y la línea tiene 4. El catálogo vigente no cambió.',
    );
  });

  test('a wrong value names its column in Spanish and what it says', async () => {
    const res = await upload(t, admin, [vehicleColumns.join(','), '2031,1,Nissan,2,Versa,3,Sense,cvt'].join('\n'));
    assert.equal(res.statusCode, 400, show(res));
    assert.match(notice(res.body) ?? '', /^Archivo rechazado en la línea 2: la columna «transmisión» \(transmission\)/);
  });

  test('an empty file says the file is empty; no file chosen asks for one', async () => {
    const empty = await upload(t, admin, '');
    assert.equal(empty.statusCode, 400, show(empty));
    assert.equal(
      notice(empty.body),
      'El archivo está vacío: no tiene encabezado ni registros. El catálogo vigente no cambió.',
    );
    const none = await upload(t, admin, '', '');
    assert.equal(none.statusCode, 400, show(none));
    assert.equal(notice(none.body), 'Elige un archivo de catálogo.');
  });
});
