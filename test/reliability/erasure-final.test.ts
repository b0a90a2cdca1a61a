/**
 * Erasure is final (docs/operations.md, "Erasure"), whole processes, on both engines: four leads with every
 * kind of personal value (contact, address, financial, person, a PIN verified so a bureau report exists, a
 * lender's note), each with values no other lead has (all but its phone and RFC hold its own 8 random letters);
 * two are erased. Then every file the database keeps is read as bytes, the service stopped (SIGTERM): on the
 * embedded engine DATA_DIR, and a backup taken after the erasure; on PostgreSQL (a scratch cluster, the service
 * its superuser, so the shredding's pg_switch_wal() and checkpoint run) the cluster's folder, its data directory
 * and server.log; on both the service's output too. In all of them:
 *
 * - no plaintext value of an erased lead is found;
 * - no `v2.<dataKeyId>.` string found opens with the data key as an erased lead's key, while each kept lead's
 *   does, and its key opens the kept lead's e-mail in an `l1.` string found (the scan reads where values live);
 * - no `l1.` string opens under an erased lead's contexts with any lead key found;
 * - the erased leads' keys, read from the files written before the erasure (which shows a scan finds them
 *   there), are then found nowhere: neither their wrapped form's IV, tag or body (whole, or a copy split across
 *   WAL pages), nor the key itself.
 *
 * Sealed values of the erased leads are still in the files (dead rows): harmless, since no key that opens them
 * is; each scan's diagnostic counts them. On PostgreSQL with a role that may not switch WAL segments nor
 * checkpoint, the wrapped keys stay in pg_wal until the server's own checkpoint (docs/operations.md), which
 * this test would report: it runs as the superuser.
 *
 * Each reliability run scans its own engine: the embedded one without DATABASE_URL, PostgreSQL (still a scratch
 * cluster of the test's own) with it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { newPartnerOn, startServiceProcess, type ServiceProcess } from '../processes/index.ts';
import { startScratchCluster, type ScratchCluster } from '../scratch-cluster.ts';
import {
  folderSources,
  openSealed,
  scan,
  tarSources,
  type Needle,
  type ScanResult,
  type Source,
} from '../erasure-scan.ts';
import { rfcCheckDigit } from '../../src/leads/rfc.ts';
import { keyIdOf } from '../../src/shared/keys.ts';

const adminToken = 'erasure-final-admin-token-0123456789';
const api = '/mx/b2b/autofin/api';
const dataKey = randomBytes(32);
const dataKeyId = keyIdOf(dataKey);
const leadCount = 4;
const erasedCount = 2;

/** A lead's personal values, each holding the lead's own 8 random letters (`tag`). */
interface Person {
  tag: string;
  phone: string;
  email: string;
  firstName: string;
  lastName: string;
  secondLastName: string;
  rfc: string;
  street: string;
  company: string;
  note: string;
}

interface Lead extends Person {
  id: string;
  /** The ids of the sandbox's copies of its PIN messages (their bodies sealed under `sandbox-message:<id>:body`). */
  messageIds: string[];
}

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join('');
const title = (word: string) => word[0].toUpperCase() + word.slice(1);

function newPerson(): Person {
  const tag = letters(8);
  const first12 = `${tag.slice(0, 4).toUpperCase()}850412${letters(2).toUpperCase()}`;
  return {
    tag,
    phone: `55${randomInt(10_000_000, 99_999_999)}`,
    email: `borrable.${tag}@example.com`,
    firstName: `Eudora${tag}`,
    lastName: title(tag),
    secondLastName: `Quin${tag}`,
    rfc: `${first12}${rfcCheckDigit(first12)}`,
    street: `Calle ${title(tag)} Oriente`,
    company: `Talleres ${title(tag)} SA de CV`,
    note: `Nota interna ${tag}: pedir comprobantes`,
  };
}

const text = (label: string, value: string): Needle => ({ label, bytes: Buffer.from(value, 'utf8') });

/**
 * The needles of an erased lead's plaintext: its tag in each case (every value but the phone and the RFC holds
 * it, so any copy of them holds it too, whatever it was part of), its phone (also in `+52…`) and its RFC.
 */
function plaintextNeedles(lead: Lead): Needle[] {
  const forms = [lead.tag, lead.tag.toUpperCase(), title(lead.tag)];
  const { email, firstName, lastName, secondLastName, street, company, note } = lead;
  for (const value of [email, firstName, lastName, secondLastName, street, company, note]) {
    assert.ok(
      forms.some((form) => value.includes(form)),
      `${value} holds its lead's tag`,
    );
  }
  return [
    ...forms.map((form) => text(`${lead.id}'s tag (its e-mail, names, street, company, note)`, form)),
    text(`${lead.id}'s phone`, lead.phone),
    text(`${lead.id}'s RFC`, lead.rfc),
  ];
}

/** The contexts the lead's values are sealed under (src/leads/lead-record.ts, outcomes, bureau, sandbox). */
function contextsOf(lead: Lead): string[] {
  const columns = ['phone_enc', 'email_enc', 'address_enc', 'financial_enc', 'person_enc', 'outcome-note'];
  return [
    ...columns.map((column) => `lead:${lead.id}:${column}`),
    `bureau-report:${lead.id}`,
    `bureau-raw:${lead.id}`,
    ...lead.messageIds.map((id) => `sandbox-message:${id}:body`),
  ];
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: object) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.text();
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${answer}`);
  return answer ? (JSON.parse(answer) as Record<string, unknown>) : {};
}

const admin = { authorization: `Bearer ${adminToken}` };

/** A lead with every section, verified by the PIN the sandbox keeps, given an outcome with a note. */
async function makeLead(base: string, partner: Record<string, string>, person: Person): Promise<Lead> {
  const at = (path: string) => `${api}/leads${path}`;
  const { id } = (await call(base, 'POST', at(''), partner, {})) as { id: string };
  await call(base, 'PUT', at(`/${id}/contact-info`), partner, { phone: person.phone, email: person.email });
  await call(base, 'PUT', at(`/${id}/loan-info`), partner, {
    downPayment: 100_000,
    term: 48,
    purchaseIntention: 'WITHIN_A_MONTH',
  });
  const address = { street: person.street, number: '120', zipCode: '06700', neighborhood: 'Roma Norte' };
  await call(base, 'PUT', at(`/${id}/address`), partner, address);
  await call(base, 'PUT', at(`/${id}/auto`), partner, { id: 371234, price: 340_000 });
  const job = { employmentType: 'Empleado', startDate: { year: 2015, month: 3 }, jobTitle: 'Analista' };
  await call(base, 'PUT', at(`/${id}/financial`), partner, {
    ...job,
    employmentCompany: person.company,
    income: 60_000,
  });
  const { firstName, lastName, secondLastName, rfc } = person;
  const names = { firstName, secondName: 'Maricruz', lastName, secondLastName };
  await call(base, 'POST', at(`/${id}/person`), partner, { ...names, rfc, birthDate: '1985-04-12' });
  await call(base, 'POST', at(`/${id}/pin`), partner, { channel: 'SMS' });
  const { items } = (await call(base, 'GET', `${api}/sandbox/leads/${id}/messages`, partner)) as {
    items: { id: string; body: string }[];
  };
  const pin = /\b\d{6}\b/.exec(items[0].body)?.[0];
  assert.ok(pin, `a PIN in ${items[0].body}`);
  await call(base, 'POST', at(`/${id}/pin/confirmation`), partner, { pin });
  await call(base, 'POST', `/admin/leads/${id}/outcome`, admin, { status: 'IN_REVIEW', note: person.note });
  return { ...person, id, messageIds: items.map((item) => item.id) };
}

/** The lead keys the `v2.` strings found open to, by lead, each with where its wrapped copy was. */
function leadKeysIn(found: ScanResult, leads: readonly Lead[]) {
  const keys = new Map<string, { key: Buffer; wrapped: string; where: string }[]>();
  for (const lead of leads) {
    for (const { text: wrapped, where } of found.v2.values()) {
      const opened = openSealed(wrapped, dataKey, `lead:${lead.id}:key`);
      if (opened === undefined) continue;
      const key = Buffer.from(JSON.parse(opened) as string, 'base64');
      keys.set(lead.id, [...(keys.get(lead.id) ?? []), { key, wrapped, where }]);
    }
  }
  return keys;
}

/**
 * Needles for an erased lead's key as the files held it before the erasure: its wrapped form's IV, tag and
 * body each alone (a whole copy holds all three; one split across WAL pages, one at least), and the key itself.
 */
function keyNeedles(lead: Lead, before: { key: Buffer; wrapped: string }[]): Needle[] {
  return before.flatMap(({ key, wrapped }) => {
    const [iv, tag, body] = wrapped.split('.').slice(2);
    return [
      text(`${lead.id}'s wrapped key's IV`, iv),
      text(`${lead.id}'s wrapped key's tag`, tag),
      text(`${lead.id}'s wrapped key's body`, body.slice(0, 40)),
      text(`${lead.id}'s key (base64)`, key.toString('base64')),
      { label: `${lead.id}'s key (bytes)`, bytes: key },
    ];
  });
}

interface Scenario {
  leads: Lead[];
  erased: Lead[];
  kept: Lead[];
  /** The erased leads' plaintext, and their keys as the files held them before the erasure. */
  needles: Needle[];
  /** The erased leads' keys, read from the files before the erasure (the service holds them no longer). */
  erasedKeys: Buffer[];
}

/** The files under `dirs` (those written at `since` or later, when given). */
function* sourcesOf(dirs: readonly string[], since?: number): Generator<Source> {
  for (const dir of dirs) yield* folderSources(dir, since);
}

/** The files under `dirs`, and the service's output (its log: a copy an operator keeps too). */
function* afterStop(dirs: readonly string[], service: ServiceProcess): Generator<Source> {
  yield* sourcesOf(dirs);
  yield { name: 'the service output', bytes: Buffer.from(service.output()) };
}

/**
 * Makes the leads, reads their keys from the files of `dirs` written since (each must be there: the scan finds a
 * key where it is kept), erases the first `erasedCount`. `flush` first writes the server's pages to its files
 * (a PostgreSQL server keeps them in memory until a checkpoint, and a WAL page boundary may split a value).
 */
async function populateAndErase(
  service: ServiceProcess,
  dirs: readonly string[],
  flush: () => Promise<void> = async () => {},
): Promise<Scenario> {
  const began = Date.now() - 2_000; // a file's time may lag the clock by a tick
  const partner = (await newPartnerOn(service.base, adminToken)).headers;
  const leads = await Promise.all(
    Array.from({ length: leadCount }, () => makeLead(service.base, partner, newPerson())),
  );
  await flush();
  const before = leadKeysIn(scan(sourcesOf(dirs, began), [], dataKeyId), leads);
  for (const lead of leads) assert.ok(before.has(lead.id), `before the erasure, the key of ${lead.id} is in a file`);
  const erased = leads.slice(0, erasedCount);
  for (const lead of erased) {
    const res = await fetch(`${service.base}/admin/leads/${lead.id}/personal-data`, {
      method: 'DELETE',
      headers: admin,
    });
    assert.equal(res.status, 204, await res.text());
  }
  const all = erased.flatMap((lead) => [...plaintextNeedles(lead), ...keyNeedles(lead, before.get(lead.id)!)]);
  const needles = [...new Map(all.map((needle) => [needle.bytes.toString('hex'), needle])).values()];
  const erasedKeys = erased.flatMap((lead) => before.get(lead.id)!.map((copy) => copy.key));
  return { leads, erased, kept: leads.slice(erasedCount), needles, erasedKeys };
}

/** Every `l1.` string found that opens with one of `keys` under one of the lead's contexts. */
function openedValues(found: ScanResult, keys: readonly Buffer[], lead: Lead): string[] {
  const opened: string[] = [];
  for (const { text: sealed, where } of found.l1.values()) {
    for (const context of contextsOf(lead)) {
      if (keys.some((key) => openSealed(sealed, key, context) !== undefined)) opened.push(`${where}: ${context}`);
    }
  }
  return opened;
}

/**
 * The checks of the top of this file on one scan (`what`: the files it read). Answers what was read, and how
 * many sealed values of the erased leads are still in the files: harmless, since no key that opens them is.
 */
function assertFinal(found: ScanResult, scenario: Scenario, what: string): string {
  assert.ok(found.files > 0 && found.l1.size > 0, `${what}: files were read (${found.files}, ${found.bytes} bytes)`);
  assert.deepEqual(found.needles, [], `${what}: an erased lead's value or key is still in a file`);
  const keys = leadKeysIn(found, scenario.leads);
  for (const lead of scenario.erased) {
    const left = (keys.get(lead.id) ?? []).map((copy) => copy.where);
    assert.deepEqual(left, [], `${what}: the data key still opens the key of erased lead ${lead.id}`);
  }
  for (const lead of scenario.kept) {
    const own = (keys.get(lead.id) ?? []).map((copy) => copy.key);
    assert.ok(own.length > 0, `${what}: the key of kept lead ${lead.id} is found and opens (control)`);
    const emails = [...found.l1.values()].filter(({ text: sealed }) =>
      own.some((key) => openSealed(sealed, key, `lead:${lead.id}:email_enc`) === JSON.stringify(lead.email)),
    );
    assert.ok(emails.length > 0, `${what}: the e-mail of kept lead ${lead.id} is found and opens (control)`);
  }
  const every = [...keys.values()].flat().map((copy) => copy.key);
  for (const lead of scenario.erased) {
    assert.deepEqual(openedValues(found, every, lead), [], `${what}: a value of erased lead ${lead.id} opens`);
  }
  const sealedLeft = scenario.erased.flatMap((lead) => openedValues(found, scenario.erasedKeys, lead)).length;
  const read = `${found.files} files, ${found.bytes} bytes, ${found.v2.size} v2 and ${found.l1.size} l1 strings`;
  return `${what}: ${read}; erased leads' sealed values left, unopenable without their keys: ${sealedLeft}`;
}

const env = (dataDir: string) => ({
  AUTOFIN_ENV: 'sandbox',
  ADMIN_TOKEN: adminToken,
  DATA_DIR: dataDir,
  DATA_ENCRYPTION_KEY: dataKey.toString('hex'),
  SMS_PROVIDER: 'log',
  EMAIL_PROVIDER: 'log',
});

const onPostgres = Boolean(process.env.DATABASE_URL);

describe(
  'erasure is final on the embedded engine: in no file of DATA_DIR, nor in a backup taken after',
  { skip: onPostgres && 'the PostgreSQL run scans a scratch cluster instead' },
  () => {
    let folder = '';
    let dataDir = '';
    let service: ServiceProcess | undefined;

    before(async () => {
      folder = mkdtempSync(join(tmpdir(), 'autofin-erasure-final-'));
      dataDir = join(folder, 'data');
      service = await startServiceProcess(env(dataDir), { timeoutMs: 120_000 });
    });
    after(async () => {
      await service?.stop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    test(
      'two of four leads erased: their values and keys are gone, the others still open',
      { timeout: 240_000 },
      async (t) => {
        const scenario = await populateAndErase(service!, [dataDir]);
        const res = await fetch(`${service!.base}/admin/backup`, { headers: admin });
        assert.equal(res.status, 200, res.status === 200 ? '' : await res.text());
        const tar = gunzipSync(Buffer.from(await res.arrayBuffer()));
        assert.equal(await service!.stop(), 0, 'a clean stop');
        const files = scan(afterStop([dataDir], service!), scenario.needles, dataKeyId);
        t.diagnostic(assertFinal(files, scenario, 'DATA_DIR'));
        t.diagnostic(assertFinal(scan(tarSources('backup', tar), scenario.needles, dataKeyId), scenario, 'the backup'));
      },
    );
  },
);

/** A checkpoint of the cluster: its pages written to its data files. */
async function checkpoint(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

describe(
  'erasure is final on PostgreSQL: in no file of the cluster’s data directory',
  { skip: !onPostgres && 'the embedded run scans DATA_DIR instead' },
  () => {
    let folder = '';
    let dataDir = '';
    let cluster: ScratchCluster | undefined;
    let service: ServiceProcess | undefined;

    before(async () => {
      folder = mkdtempSync(join(tmpdir(), 'autofin-erasure-final-pg-'));
      dataDir = join(folder, 'data');
      cluster = await startScratchCluster({ settings: { wal_recycle: 'off', min_wal_size: '32MB' } });
      // The superuser: the shredding's pg_switch_wal() and checkpoint run.
      const settings = { ...env(dataDir), DATABASE_URL: cluster.url };
      service = await startServiceProcess(settings, { timeoutMs: 120_000 });
    });
    after(async () => {
      await service?.stop();
      await cluster?.stop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    test(
      'two of four leads erased: their values and keys are gone, the others still open',
      { timeout: 240_000 },
      async (t) => {
        // The cluster's folder (its data directory, and its server.log beside it), and the service's DATA_DIR.
        const dirs = [dirname(cluster!.dataDir), dataDir];
        const scenario = await populateAndErase(service!, dirs, () => checkpoint(cluster!.url));
        const backup = await fetch(`${service!.base}/admin/backup`, { headers: admin });
        assert.equal(backup.status, 409, 'no backup on PostgreSQL (its own tools take them)');
        await backup.arrayBuffer();
        assert.equal(await service!.stop(), 0, 'a clean stop');
        const files = scan(afterStop(dirs, service!), scenario.needles, dataKeyId);
        t.diagnostic(assertFinal(files, scenario, 'the cluster'));
      },
    );
  },
);
