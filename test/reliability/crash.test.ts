/**
 * Whole-process crash: eight writers create leads and save their six sections over HTTP while the
 * process is killed with SIGKILL at a random moment; the service is started again on the same data
 * and every write it had acknowledged (2xx) is read back intact. Three kills per run, on the engine
 * of the run (embedded, or PostgreSQL with DATABASE_URL).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  api,
  engine,
  newPartner,
  partnerHeaders,
  reliabilityInstallation,
  type Instance,
  type PartnerAccess,
} from './installation.ts';
import { leadDefaults, sandboxBirthDate, sandboxRfc, versionId } from '../lead-fixture.ts';

const writers = 8;
const kills = 3;

/** A section write and how its value shows in GET /leads/{id}: the view key and a marker it must contain. */
interface Section {
  name: string;
  method: 'PUT' | 'POST';
  path: string;
  body: object;
  viewKey: string;
  marker: string;
}

function sectionsOf(n: number): Section[] {
  const phone = `55${String(n).padStart(8, '0')}`;
  return [
    {
      name: 'contact',
      method: 'PUT',
      path: 'contact-info',
      body: { phone, email: `lead${n}@example.com` },
      viewKey: 'contact',
      marker: phone,
    },
    {
      name: 'loan',
      method: 'PUT',
      path: 'loan-info',
      body: { downPayment: 100_000 + n, term: 48, purchaseIntention: 'WITHIN_A_MONTH' },
      viewKey: 'loanInfo',
      marker: String(100_000 + n),
    },
    {
      name: 'address',
      method: 'PUT',
      path: 'address',
      body: { ...leadDefaults.address, number: String(n) },
      viewKey: 'address',
      marker: `"${n}"`,
    },
    {
      name: 'auto',
      method: 'PUT',
      path: 'auto',
      body: { id: versionId, price: 340_000 + n },
      viewKey: 'vehicle',
      marker: String(340_000 + n),
    },
    {
      name: 'financial',
      method: 'PUT',
      path: 'financial',
      body: { ...leadDefaults.employment, jobTitle: 'Analista', income: 60_000 + n },
      viewKey: 'financial',
      marker: String(60_000 + n),
    },
    {
      name: 'person',
      method: 'POST',
      path: 'person',
      body: { ...leadDefaults.person, rfc: sandboxRfc.A1, birthDate: sandboxBirthDate },
      viewKey: 'person',
      marker: leadDefaults.person.lastName,
    },
  ];
}

/** What the service acknowledged: lead id → sections answered 2xx. */
const acknowledged = new Map<string, Section[]>();
let counter = 0;
const totals = { leads: 0, sections: 0, failedRequests: 0 };

async function write(base: string, headers: Record<string, string>, method: string, path: string, body: object) {
  const res = await fetch(`${base}${api}${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text };
}

/** One writer: leads and their sections until `stop`; a failed request (the crash) ends nothing but itself. */
async function writer(base: string, headers: Record<string, string>, stopped: () => boolean) {
  while (!stopped()) {
    try {
      const created = await write(base, headers, 'POST', '/leads', {});
      if (created.status !== 201) throw new Error(`create: ${created.status} ${created.body}`);
      const id = JSON.parse(created.body).id as string;
      acknowledged.set(id, []);
      totals.leads++;
      const n = ++counter;
      for (const section of sectionsOf(n)) {
        if (stopped()) return;
        const res = await write(base, headers, section.method, `/leads/${id}/${section.path}`, section.body);
        if (res.status >= 300) throw new Error(`${section.name}: ${res.status} ${res.body}`);
        acknowledged.get(id)!.push(section);
        totals.sections++;
      }
    } catch (error) {
      // Refused or reset by the crash: not acknowledged, so nothing to find later. Anything else is a bug.
      const text = String((error as Error).cause ?? error);
      if (
        !/ECONNREFUSED|ECONNRESET|other side closed|fetch failed|terminated|SocketError|aborted/i.test(
          text + String(error),
        )
      )
        throw error;
      totals.failedRequests++;
      await sleep(20);
    }
  }
}

async function readBackEverything(base: string, headers: Record<string, string>) {
  let checked = 0;
  for (const [id, sections] of acknowledged) {
    const res = await fetch(`${base}${api}/leads/${id}`, { headers });
    const text = await res.text();
    assert.equal(res.status, 200, `lead ${id} was acknowledged: ${res.status} ${text}`);
    const lead = JSON.parse(text);
    for (const section of sections) {
      const shown = JSON.stringify(lead[section.viewKey]);
      assert.ok(
        shown !== undefined && shown !== 'null' && shown.includes(section.marker),
        `lead ${id} ${section.name}: ${shown} lacks ${section.marker}`,
      );
      checked++;
    }
  }
  return checked;
}

describe(`SIGKILL under concurrent lead writes (${engine}), ${kills} times`, () => {
  let install: Awaited<ReturnType<typeof reliabilityInstallation>>;
  let partner: PartnerAccess;
  let instance: Instance;
  const figures: string[] = [];

  before(async () => {
    install = await reliabilityInstallation('crash');
    instance = await install.start();
    partner = await newPartner(instance.base);
  });
  after(async () => {
    console.log(`crash test figures (${engine}): ${figures.join('; ')}`);
    await install.drop();
  });

  for (let round = 1; round <= kills; round++) {
    test(
      `kill ${round}: every acknowledged write survives the kill and a restart on the same data`,
      { timeout: 600_000 },
      async () => {
        const headers = await partnerHeaders(instance.base, partner.credential);
        let stopped = false;
        const running = Array.from({ length: writers }, () => writer(instance.base, headers, () => stopped));
        const before = totals.sections + totals.leads;
        await sleep(1500 + Math.floor(Math.random() * 2000));
        const exit = await instance.kill('SIGKILL');
        assert.equal(exit.signal, 'SIGKILL');
        await sleep(200);
        stopped = true;
        await Promise.all(running);
        const writes = totals.sections + totals.leads - before;
        assert.ok(writes > writers, `only ${writes} writes were acknowledged before kill ${round}`);
        instance = await install.start();
        const checked = await readBackEverything(
          instance.base,
          await partnerHeaders(instance.base, partner.credential),
        );
        figures.push(
          `kill ${round}: ${writes} writes acknowledged in the round, ${acknowledged.size} leads and ${checked} sections read back intact`,
        );
      },
    );
  }
});
