import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { api, buildTestApp, type TestApp } from '../../test/helper.ts';
import { runAutofin, type CliRun } from '../../test/cli-run.ts';
import { vehicleColumns } from '../catalogs/catalog-file.ts';

let t: TestApp;
let url: string;
const files = mkdtempSync(join(tmpdir(), 'autofin-cli-'));

/** Runs the CLI as an operator would, in this process (test/cli-run.ts). */
const autofin = (args: string[], env: Record<string, string> = {}): Promise<CliRun> => runAutofin(url, args, env);
const ok = async (args: string[]) => {
  const run = await autofin(args);
  assert.equal(run.code, 0, `autofin ${args.join(' ')}: ${run.stderr}`);
  return JSON.parse(run.stdout);
};
const fails = async (args: string[], env?: Record<string, string>) => {
  const run = await autofin(args, env);
  assert.equal(run.code, 1, `autofin ${args.join(' ')}: ${run.stdout}${run.stderr}`);
  assert.equal(run.stdout, '');
  return JSON.parse(run.stderr);
};
const token = (credential: { consumer_key: string; consumer_secret: string }) =>
  t.app.inject({ method: 'POST', url: '/auth/token', payload: credential });

describe('the autofin command line against a running service', () => {
  before(async () => {
    t = await buildTestApp({ ownCatalogStore: true });
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  companyCliTests();
  catalogAndErrorCliTests();
});

/** Companies, credentials and affiliates from the command line. */
function companyCliTests(): void {
  test('creates a company, a credential and affiliates, lists companies, and revokes the credential', async () => {
    const company = await ok(['companies', 'create', '--name', 'Autos CLI del Bajío']);
    assert.equal(company.name, 'Autos CLI del Bajío');
    assert.match(company.id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(company.createdAt)));

    const credential = await ok(['credentials', 'create', '--company', company.id]);
    assert.match(credential.consumer_key, /^ck_/);
    assert.match(credential.consumer_secret, /^cs_/);
    assert.equal((await token(credential)).statusCode, 200);

    const seller = await ok(['affiliates', 'create', '--company', company.id, '--user-type', 'SELLER']);
    assert.equal(seller.user_type, 'SELLER');
    assert.equal(seller.companyId, company.id);
    const userId = '0b7e6a52-1f0c-4d8e-9a3b-5c2d1e0f9a8b';
    assert.deepEqual(
      await ok(['affiliates', 'create', '--company', company.id, '--user-id', userId, '--user-type', 'MANAGER']),
      {
        user_id: userId,
        user_type: 'MANAGER',
        companyId: company.id,
      },
    );

    const list = await ok(['companies', 'list']);
    assert.deepEqual(
      list.items.find((c: { id: string }) => c.id === company.id),
      company,
    );

    assert.deepEqual(await ok(['companies', 'show', company.id]), company);
    assert.deepEqual((await ok(['affiliates', 'list', '--company', company.id])).items, [
      { user_id: seller.user_id, user_type: 'SELLER', companyId: company.id },
      { user_id: userId, user_type: 'MANAGER', companyId: company.id },
    ]);
    const [listed] = (await ok(['credentials', 'list', '--company', company.id])).items;
    assert.equal(listed.consumer_key, credential.consumer_key);
    assert.equal(listed.revokedAt, null);
    assert.ok(!JSON.stringify(listed).includes(credential.consumer_secret), 'a credential list never shows the secret');

    assert.deepEqual(await ok(['credentials', 'revoke', credential.consumer_key]), {
      consumer_key: credential.consumer_key,
      revoked: true,
    });
    assert.equal((await token(credential)).statusCode, 401);
    const [revoked] = (await ok(['credentials', 'list', '--company', company.id])).items;
    assert.ok(!Number.isNaN(Date.parse(revoked.revokedAt)), JSON.stringify(revoked));
  });

  test('showing or listing for an unknown company prints 404 / 4046', async () => {
    const unknown = '0b7e6a52-1f0c-4d8e-9a3b-000000000000';
    for (const args of [
      ['companies', 'show', unknown],
      ['credentials', 'list', '--company', unknown],
      ['affiliates', 'list', '--company', unknown],
    ]) {
      const error = await fails(args);
      assert.equal(error.code, 4046, args.join(' '));
      assert.equal(error.message, 'Company not found');
    }
  });
}

/** A catalog import, refused requests and wrong usage. */
function catalogAndErrorCliTests(): void {
  test('imports a vehicle catalog file that the partner API then serves', async () => {
    const csv = [
      vehicleColumns.join(','),
      '2032,9001,ACME,9101,ROADSTER,910001,BASE,manual',
      '2032,9001,ACME,9101,ROADSTER,910002,SPORT,automatic',
    ].join('\n');
    const file = join(files, 'vehicles.csv.gz');
    const bytes = gzipSync(csv);
    writeFileSync(file, bytes);
    const result = await ok(['catalogs', 'import', '--vehicles', file]);
    assert.deepEqual(result, {
      kind: 'vehicles',
      rowCount: 2,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    const years = await t.app.inject({ method: 'GET', url: `${api}/catalogs/years`, headers: t.partner.headers });
    assert.deepEqual(years.json(), [{ id: '2032', name: '2032' }]);
  });

  test('a refused request prints the ErrorResponse on stderr and exits 1', async () => {
    const unknown = await fails(['credentials', 'create', '--company', '6a1f2e3d-4c5b-4a69-8877-665544332211']);
    assert.equal(unknown.code, 4046);
    assert.equal(unknown.message, 'Company not found');

    const bad = join(files, 'bad.csv');
    writeFileSync(bad, `${vehicleColumns.join(',')}\n2032,9001,ACME,9101,ROADSTER,1,BASE,cvt\n`);
    const refused = await fails(['catalogs', 'import', '--vehicles', bad]);
    assert.equal(refused.code, 40015);
    assert.equal(refused.additionalData.line, 2);

    assert.equal((await fails(['companies', 'list'], { ADMIN_TOKEN: 'not-the-admin-token-000' })).code, 4010);
    assert.match((await fails(['catalogs', 'import', '--zip-codes', join(files, 'missing.csv')])).reason, /ENOENT/);
    assert.match((await fails(['companies', 'list', '--url', 'http://127.0.0.1:1'])).message, /cannot reach/);
  });

  test('wrong usage prints the help on stderr and exits 2', async () => {
    const run = await autofin(['companies', 'create']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--name is required/);
    assert.match(run.stderr, /Usage:/);
    const help = await autofin(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /autofin catalogs import --vehicles FILE/);
  });
}
