/**
 * Erasure is final (docs/operations.md, "Erasure"), whole processes, on both engines: four leads with every
 * kind of personal value (contact, address, financial, person, a PIN verified so a bureau report exists, a
 * lender's note, a document uploaded for the lender's condition), each with values no other lead has (all but
 * its phone and RFC hold its own 8 random letters, the document's file name and bytes too); two are erased.
 * Then every file the database keeps is read as bytes, the service stopped (SIGTERM): on the embedded engine
 * DATA_DIR, and a backup taken after the erasure; on PostgreSQL (a scratch cluster, the service its superuser,
 * so the shredding's pg_switch_wal() and checkpoint run) the cluster's folder, its data directory and
 * server.log, and a pg_dump taken after the erasure; on both the service's output too. In all of them:
 *
 * - no plaintext value of an erased lead is found, its document's name and bytes included;
 * - no `v2.<dataKeyId>.` string found opens with the data key as an erased lead's key, while each kept lead's
 *   does, and its key opens the kept lead's e-mail in an `l1.` string found (the scan reads where values live);
 * - no sealed string opens under an erased lead's contexts (its document's key and name included) with a key
 *   the service has: an `l1.` one with any lead key found, a `v2.` one with the data key; no copy of its
 *   document's chunk (src/documents/document-sealing.ts) opens with any document key found, while each kept
 *   lead's document name, key and chunk are found and open to its file;
 * - the erased leads' keys and their documents' keys, read from the files written before the erasure (which
 *   shows a scan finds them there, and the chunks too), are then found nowhere: neither a lead key's wrapped
 *   form's IV, tag or body (whole, or a copy split across WAL pages), nor either key itself.
 *
 * Sealed values of the erased leads are still in the files (dead rows), their documents' chunks too: harmless,
 * since no key that opens them is; each scan's diagnostic counts them. A pg_dump holds live rows only: there,
 * one of them is a row the erasure left, and fails the test. On PostgreSQL with a role
 * that may not switch WAL segments nor checkpoint, the wrapped keys stay in pg_wal until the server's own
 * checkpoint (docs/operations.md), which this test would report: it runs as the superuser.
 *
 * A document's digest (SHA-256, hex) is a value like the others: sealed with the lead's key, so its plain text
 * is found nowhere, and its sealed copies open with no key the service holds once the lead is erased.
 *
 * Each reliability run scans its own engine: the embedded one without DATABASE_URL, PostgreSQL (still a scratch
 * cluster of the test's own) with it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { newPartnerOn, startServiceProcess, type ServiceProcess } from '../processes/index.ts';
import { startScratchCluster, type ScratchCluster } from '../scratch-cluster.ts';
import {
  folderSources,
  openChunk,
  openSealed,
  scan,
  tarSources,
  type ChunkOf,
  type Needle,
  type ScanResult,
  type Source,
} from '../erasure-scan.ts';
import { png, uploadForm } from '../document-files.ts';
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
  /** The document's file name and bytes (a PNG: the upload tells the type by the bytes). */
  fileName: string;
  file: Buffer;
}

interface Lead extends Person {
  id: string;
  /** The ids of the sandbox's copies of its PIN messages (their bodies sealed under `sandbox-message:<id>:body`). */
  messageIds: string[];
  documentId: string;
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
    fileName: `comprobante-${tag}.png`,
    file: Buffer.concat([png().subarray(0, 8), Buffer.from(`Comprobante de ingresos ${tag}`), randomBytes(256)]),
  };
}

const text = (label: string, value: string): Needle => ({ label, bytes: Buffer.from(value, 'utf8') });

/**
 * The needles of an erased lead's plaintext: its tag in each case (every value but the phone and the RFC holds
 * it, so any copy of them holds it too, whatever it was part of), its phone (also in `+52…`) and its RFC; its
 * document's file name, and the random end of its bytes (a copy of them without the tag).
 */
function plaintextNeedles(lead: Lead): Needle[] {
  const forms = [lead.tag, lead.tag.toUpperCase(), title(lead.tag)];
  const { email, firstName, lastName, secondLastName, street, company, note, fileName, file } = lead;
  const bytes = file.toString('latin1');
  for (const value of [email, firstName, lastName, secondLastName, street, company, note, fileName, bytes]) {
    assert.ok(
      forms.some((form) => value.includes(form)),
      `${value} holds its lead's tag`,
    );
  }
  return [
    ...forms.map((form) => text(`${lead.id}'s tag (its e-mail, names, street, company, note)`, form)),
    text(`${lead.id}'s phone`, lead.phone),
    text(`${lead.id}'s RFC`, lead.rfc),
    text(`${lead.id}'s document's file name`, fileName),
    { label: `${lead.id}'s document's bytes`, bytes: file.subarray(file.length - 32) },
  ];
}

/** The contexts the lead's values are sealed under (src/leads/lead-record.ts, outcomes, bureau, sandbox, documents). */
function contextsOf(lead: Lead): string[] {
  const columns = ['phone_enc', 'email_enc', 'address_enc', 'financial_enc', 'person_enc', 'outcome-note'];
  return [
    ...columns.map((column) => `lead:${lead.id}:${column}`),
    `bureau-report:${lead.id}`,
    `bureau-raw:${lead.id}`,
    ...lead.messageIds.map((id) => `sandbox-message:${id}:body`),
    `document:${lead.documentId}:key`,
    `document:${lead.documentId}:file-name`,
    `document:${lead.documentId}:sha256`,
  ];
}

/** The lead's document's chunk as the scan looks for it: one chunk, its bytes with an IV and a tag (28 bytes). */
const chunkOf = (lead: Lead): ChunkOf => ({ documentId: lead.documentId, sealedLength: lead.file.length + 28 });

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

/** The lender asks the lead for a proof of income (CONDITIONED); the partner uploads the person's file for it. */
async function uploadDocument(base: string, partner: Record<string, string>, leadId: string, person: Person) {
  const conditioned = await call(base, 'POST', `/admin/leads/${leadId}/outcome`, admin, {
    status: 'CONDITIONED',
    conditions: [{ code: 'PROOF_OF_INCOME', description: 'Últimos 3 recibos de nómina' }],
  });
  const [condition] = conditioned.conditions as { id: string }[];
  const form = uploadForm(condition.id, { fileName: person.fileName, data: person.file, contentType: 'image/png' });
  const res = await fetch(`${base}${api}/leads/${leadId}/documents`, {
    method: 'POST',
    headers: { ...partner, ...form.headers },
    body: form.payload,
  });
  const answer = await res.text();
  assert.equal(res.status, 201, answer);
  return (JSON.parse(answer) as { id: string }).id;
}

/** A lead with every section, verified by the PIN the sandbox keeps, given an outcome with a note; its document. */
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
  const documentId = await uploadDocument(base, partner, id, person);
  return { ...person, id, messageIds: items.map((item) => item.id), documentId };
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
 * The sealed strings found, each with the keys the service opens it with: an `l1.` one with `leadKeys`, a `v2.`
 * one with the data key (a value sealed before lead keys, documents' keys among them, until key rotation).
 */
const withKeys = (found: ScanResult, leadKeys: readonly Buffer[]) => [
  ...[...found.l1.values()].map((copy) => ({ ...copy, keys: leadKeys })),
  ...[...found.v2.values()].map((copy) => ({ ...copy, keys: [dataKey] })),
];

/** The keys of the leads' documents the sealed strings found open to with the lead keys found, by lead. */
function documentKeysIn(found: ScanResult, leadKeys: Map<string, { key: Buffer }[]>, leads: readonly Lead[]) {
  const every = [...leadKeys.values()].flat().map((copy) => copy.key);
  const keys = new Map<string, Buffer[]>();
  for (const lead of leads) {
    for (const { text: sealed, keys: openWith } of withKeys(found, every)) {
      for (const key of openWith) {
        const opened = openSealed(sealed, key, `document:${lead.documentId}:key`);
        if (opened === undefined) continue;
        keys.set(lead.id, [...(keys.get(lead.id) ?? []), Buffer.from(JSON.parse(opened) as string, 'base64')]);
      }
    }
  }
  return keys;
}

/** Each copy of the lead's document's chunk found that opens with one of `keys`, with its plain bytes. */
function chunksOpening(found: ScanResult, keys: readonly Buffer[], lead: Lead) {
  const copies = [...(found.chunks.get(lead.documentId)?.values() ?? [])];
  return copies.flatMap(({ text: bytes, where }) =>
    keys.flatMap((key) => {
      const plain = openChunk(bytes, key, chunkOf(lead));
      return plain ? [{ where, plain }] : [];
    }),
  );
}

/**
 * Needles for an erased lead's key as the files held it before the erasure: its wrapped form's IV, tag and
 * body each alone (a whole copy holds all three; one split across WAL pages, one at least), and the key itself;
 * and its document's key (stored sealed only).
 */
function keyNeedles(lead: Lead, before: { key: Buffer; wrapped: string }[], documentKeys: Buffer[]): Needle[] {
  const leadKeys = before.flatMap(({ key, wrapped }) => {
    const [iv, tag, body] = wrapped.split('.').slice(2);
    return [
      text(`${lead.id}'s wrapped key's IV`, iv),
      text(`${lead.id}'s wrapped key's tag`, tag),
      text(`${lead.id}'s wrapped key's body`, body.slice(0, 40)),
      text(`${lead.id}'s key (base64)`, key.toString('base64')),
      { label: `${lead.id}'s key (bytes)`, bytes: key },
    ];
  });
  return [
    ...leadKeys,
    ...documentKeys.flatMap((key) => [
      text(`${lead.id}'s document's key (base64)`, key.toString('base64')),
      { label: `${lead.id}'s document's key (bytes)`, bytes: key },
    ]),
  ];
}

interface Scenario {
  leads: Lead[];
  erased: Lead[];
  kept: Lead[];
  /** The erased leads' plaintext, and their keys and documents' keys as the files held them before the erasure. */
  needles: Needle[];
  /** The erased leads' keys, read from the files before the erasure (the service holds them no longer). */
  erasedKeys: Buffer[];
  /** The erased leads' documents' keys, read the same way. */
  erasedDocumentKeys: Buffer[];
}

/** One scan of `sources` for the scenario's needles, and its documents' chunks. */
const scanFor = (sources: Iterable<Source>, scenario: Pick<Scenario, 'leads' | 'needles'>) =>
  scan(sources, scenario.needles, dataKeyId, scenario.leads.map(chunkOf));

const digestOf = (lead: Lead) =>
  text(`${lead.id}'s document's digest`, createHash('sha256').update(lead.file).digest('hex'));

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
 * The leads' keys and their documents' keys in `sources`, each lead's there (the scan finds a key where it is
 * kept), and its document's chunk there too, opening with its document's key.
 */
function keysBefore(sources: Iterable<Source>, leads: Lead[]) {
  const found = scanFor(sources, { leads, needles: [] });
  const keys = leadKeysIn(found, leads);
  for (const lead of leads) assert.ok(keys.has(lead.id), `before the erasure, the key of ${lead.id} is in a file`);
  const documentKeys = documentKeysIn(found, keys, leads);
  for (const lead of leads) {
    const own = documentKeys.get(lead.id) ?? [];
    assert.ok(own.length > 0, `before the erasure, the key of ${lead.id}'s document is in a file`);
    const files = chunksOpening(found, own, lead).filter(({ plain }) => plain.equals(lead.file));
    assert.ok(files.length > 0, `before the erasure, the file of ${lead.id} is in a file and opens`);
  }
  return { keys, documentKeys };
}

/**
 * Makes the leads, reads their keys from the files of `dirs` written since (`keysBefore`), erases the first
 * `erasedCount`. `flush` first writes the server's pages to its files (a PostgreSQL server keeps them in memory
 * until a checkpoint, and a WAL page boundary may split a value).
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
  const before = keysBefore(sourcesOf(dirs, began), leads);
  const erased = leads.slice(0, erasedCount);
  for (const lead of erased) {
    const res = await fetch(`${service.base}/admin/leads/${lead.id}/personal-data`, {
      method: 'DELETE',
      headers: admin,
    });
    assert.equal(res.status, 204, await res.text());
  }
  const all = erased.flatMap((lead) => [
    ...plaintextNeedles(lead),
    digestOf(lead),
    ...keyNeedles(lead, before.keys.get(lead.id)!, before.documentKeys.get(lead.id)!),
  ]);
  const needles = [...new Map(all.map((needle) => [needle.bytes.toString('hex'), needle])).values()];
  const erasedKeys = erased.flatMap((lead) => before.keys.get(lead.id)!.map((copy) => copy.key));
  const erasedDocumentKeys = erased.flatMap((lead) => before.documentKeys.get(lead.id)!);
  return { leads, erased, kept: leads.slice(erasedCount), needles, erasedKeys, erasedDocumentKeys };
}

/** Every sealed string found that opens under one of the lead's contexts (`l1.` with one of `keys`, `withKeys`). */
function openedValues(found: ScanResult, keys: readonly Buffer[], lead: Lead): string[] {
  const opened: string[] = [];
  for (const { text: sealed, where, keys: openWith } of withKeys(found, keys)) {
    for (const context of contextsOf(lead)) {
      if (openWith.some((key) => openSealed(sealed, key, context) !== undefined)) opened.push(`${where}: ${context}`);
    }
  }
  return opened;
}

/**
 * The documents' checks of the top of this file, `leadKeys` the keys found: no erased lead's chunk opens with a
 * document key found; each kept lead's document name and chunk are found and open. Answers how many copies of
 * the erased leads' chunks are left, unopenable without their documents' keys.
 */
function assertDocuments(
  found: ScanResult,
  scenario: Scenario,
  what: string,
  leadKeys: Map<string, { key: Buffer }[]>,
) {
  const documentKeys = documentKeysIn(found, leadKeys, scenario.leads);
  const every = [...documentKeys.values()].flat();
  for (const lead of scenario.erased) {
    const opened = chunksOpening(found, every, lead).map(({ where }) => where);
    assert.deepEqual(opened, [], `${what}: the file of erased lead ${lead.id} opens`);
  }
  for (const lead of scenario.kept) {
    const own = (leadKeys.get(lead.id) ?? []).map((copy) => copy.key);
    const context = `document:${lead.documentId}:file-name`;
    const names = [...found.l1.values()].filter(({ text: sealed }) =>
      own.some((key) => openSealed(sealed, key, context) === JSON.stringify(lead.fileName)),
    );
    assert.ok(names.length > 0, `${what}: the document name of kept lead ${lead.id} is found and opens (control)`);
    const files = chunksOpening(found, documentKeys.get(lead.id) ?? [], lead).filter(({ plain }) =>
      plain.equals(lead.file),
    );
    assert.ok(files.length > 0, `${what}: the file of kept lead ${lead.id} is found and opens (control)`);
  }
  return scenario.erased.flatMap((lead) => chunksOpening(found, scenario.erasedDocumentKeys, lead)).length;
}

/**
 * The checks of the top of this file on one scan (`what`: the files it read). Answers what was read, and how
 * many sealed values of the erased leads are still in the files: harmless, since no key that opens them is.
 * `liveRows`: what was read holds live rows only (a pg_dump), so any of them is a row the erasure left.
 */
function assertFinal(found: ScanResult, scenario: Scenario, what: string, liveRows = false): string {
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
  const chunksLeft = assertDocuments(found, scenario, what, keys);
  const sealedLeft = scenario.erased.flatMap((lead) => openedValues(found, scenario.erasedKeys, lead)).length;
  const read = `${found.files} files, ${found.bytes} bytes, ${found.v2.size} v2 and ${found.l1.size} l1 strings`;
  if (liveRows) {
    assert.deepEqual(
      { sealedLeft, chunksLeft },
      { sealedLeft: 0, chunksLeft: 0 },
      `${what}: a row of an erased lead is left`,
    );
  }
  const left = `${sealedLeft} sealed values and ${chunksLeft} copies of their files`;
  return `${what}: ${read}; erased leads' ${left} left, unopenable without their keys`;
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
        t.diagnostic(assertFinal(scanFor(afterStop([dataDir], service!), scenario), scenario, 'DATA_DIR'));
        t.diagnostic(assertFinal(scanFor(tarSources('backup', tar), scenario), scenario, 'the backup'));
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
  'erasure is final on PostgreSQL: in no file of the cluster’s data directory, nor in a pg_dump taken after',
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
        t.diagnostic(assertFinal(scanFor(afterStop(dirs, service!), scenario), scenario, 'the cluster'));
        // Once the stop has run the asked-for shred; into the test's folder (beside DATA_DIR, not in a folder scanned).
        const dump = join(folder, 'after-erasure.sql');
        await cluster!.dump(dump);
        const dumped = scanFor([{ name: dump, bytes: readFileSync(dump) }], scenario);
        t.diagnostic(assertFinal(dumped, scenario, 'pg_dump', true));
      },
    );
  },
);
