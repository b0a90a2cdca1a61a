/**
 * After a lead's personal data is erased, no file of the service's DATA_DIR holds it in clear text:
 * the whole process (`dist/main.js`) in the sandbox, with the `log` SMS and e-mail providers, on the
 * engine of the run (the embedded one keeps its database in DATA_DIR; with DATABASE_URL a scratch
 * database). Every file under DATA_DIR is read as bytes and searched for the person's phone, e-mail,
 * names and RFC, before the stop and after it (when the embedded engine has written everything out).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase, newPartnerOn, startServiceProcess, type ServiceProcess } from '../processes/index.ts';

const adminToken = 'erasure-admin-token-0123456789abcdef';
const api = '/mx/b2b/autofin/api';
const person = {
  phone: '5587654321',
  email: 'zenobia.borrable@example.com',
  firstName: 'Zenobia',
  secondName: 'Eulalia',
  lastName: 'Garabatoz',
  secondLastName: 'Pizarrona',
  rfc: 'SAND850412A16',
};
/** The forms a value could be stored in: as written, and as the SMS provider is given the phone. */
const needles = [
  person.phone,
  `+52${person.phone}`,
  person.email,
  person.firstName,
  person.lastName,
  person.secondLastName,
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files under `dir` that hold one of the needles, as UTF-8 or as PostgreSQL's text bytes. */
function filesHolding(dir: string): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = readFileSync(file);
    for (const needle of needles) if (bytes.includes(Buffer.from(needle))) found.push(`${file}: ${needle}`);
  }
  return found;
}

describe('erasure leaves no personal data in DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'autofin-erasure-'));
  let service: ServiceProcess;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;

  before(async () => {
    if (process.env.DATABASE_URL) scratch = await createScratchDatabase(process.env.DATABASE_URL);
    service = await startServiceProcess(
      {
        AUTOFIN_ENV: 'sandbox',
        ADMIN_TOKEN: adminToken,
        DATA_DIR: dataDir,
        SMS_PROVIDER: 'log',
        EMAIL_PROVIDER: 'log',
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      },
      { timeoutMs: 180_000 },
    );
  });
  after(async () => {
    await service?.stop();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a lead with PINs sent by SMS and e-mail, erased, is in no file of DATA_DIR', { timeout: 240_000 }, async () => {
    const partner = await newPartnerOn(service.base, adminToken);
    const headers = { ...partner.headers, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: object) => {
      const res = await fetch(`${service.base}${api}${path}`, {
        method,
        headers,
        body: body ? JSON.stringify(body) : undefined,
      });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
      return res;
    };
    const lead = ((await (await call('POST', '/leads', {})).json()) as { id: string }).id;
    await call('PUT', `/leads/${lead}/contact-info`, { phone: person.phone, email: person.email });
    await call('PUT', `/leads/${lead}/loan-info`, {
      downPayment: 100_000,
      term: 48,
      purchaseIntention: 'WITHIN_A_MONTH',
    });
    await call('PUT', `/leads/${lead}/address`, {
      street: 'Av. Álvaro Obregón',
      number: '120',
      zipCode: '06700',
      neighborhood: 'Roma Norte',
    });
    await call('POST', `/leads/${lead}/person`, {
      firstName: person.firstName,
      secondName: person.secondName,
      lastName: person.lastName,
      secondLastName: person.secondLastName,
      rfc: person.rfc,
      birthDate: '1985-04-12',
    });
    await call('POST', `/leads/${lead}/pin`, { channel: 'SMS' });
    await call('POST', `/leads/${lead}/pin`, { channel: 'EMAIL' });

    const erased = await fetch(`${service.base}/admin/leads/${lead}/personal-data`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(erased.status, 204, await erased.text());
    assert.deepEqual(filesHolding(dataDir), [], 'while the service runs');
    assert.equal(await service.stop(), 0);
    assert.deepEqual(filesHolding(dataDir), [], 'after it stopped');
    assert.ok(filesUnder(dataDir).length > 0, 'DATA_DIR was searched');
  });
});
