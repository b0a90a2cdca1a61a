/**
 * docs/sandbox.md walked against a running sandbox, so the page cannot drift from the behaviour:
 * its tables are parsed from the file and its curl lines are run as written (with the partner's
 * token and a fresh lead), and each documented answer is checked.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { api, buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { assertError, pinFrom, readyLead } from '../../test/lead-fixture.ts';
import { createSandboxBureau, sandboxProfileOf, SANDBOX_PROFILES } from '../bureau/sandbox-bureau.ts';
import { checkRfc } from '../leads/rfc.ts';
import { systemClock } from '../shared/index.ts';
import { magicEmails, magicPhones } from './magic-values.ts';
import { assignment, parseCurl, section, shellLines, table } from '../../test/markdown-guide.ts';
import { documentFixture } from '../../test/document-fixture.ts';
import { multipart, plainPdf } from '../../test/document-files.ts';

const guide = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
const magicSection = section(guide, 'Magic phones and e-mails');
const magicRows = table(magicSection);
const profileRows = table(section(guide, 'Credit bureau profiles'));
const people = table(section(guide, 'Test people'));
const addresses = table(section(guide, 'Test addresses'));
const wholeLead = shellLines(section(guide, 'A whole lead'));
const documentLines = shellLines(section(guide, 'Documents for conditions'));

let t: TestApp;
let vars: Record<string, string>;

/** Runs one documented curl command as the partner. */
async function run(line: string, extra: Record<string, string> = {}) {
  const call = parseCurl(line, { ...vars, ...extra });
  return t.app.inject({
    method: call.method as 'GET',
    url: call.url,
    headers: call.headers,
    ...(call.body === undefined ? {} : { payload: call.body }),
  });
}

function sandboxGuideTests1() {
  test('the magic table lists exactly the reserved recipients of the service', () => {
    assert.deepEqual(
      magicRows.map((r) => r["lead's phone or e-mail"]).sort(),
      [...Object.keys(magicPhones), ...Object.keys(magicEmails)].sort(),
    );
  });

  for (const row of magicRows) {
    const value = row["lead's phone or e-mail"];
    test(
      `magic ${value}: its curl line answers ${row.status} ` + `/ ${row.code}, lists nothing and leaves no PIN`,
      async () => {
        const lines = shellLines(magicSection).filter((l) => l.includes(`"${value}"`));
        assert.equal(lines.length, 1, `one curl line for ${value}`);
        const lead = await readyLead(t);
        const [contact, send] = lines[0].split(' && ');
        const saved = await run(contact, { LEAD: lead });
        assert.equal(saved.statusCode, 204, show(saved));
        const sent = await run(send, { LEAD: lead });
        assert.equal(parseCurl(send, { ...vars, LEAD: lead }).body?.channel, row.channel);
        assertError(sent, Number(row.status), Number(row.code), 'Third-party message error');
        const messages = await run(
          `curl -s "$BASE${api}/sandbox/leads/$LEAD/messages" -H "Authorization: Bearer $TOKEN"`,
          { LEAD: lead },
        );
        assert.deepEqual(messages.json().items, [], show(messages));
        const confirm = await run(
          `curl -s -X POST "$BASE${api}/leads/$LEAD/pin/confirmation" ` +
            `-H "Authorization: Bearer $TOKEN" -d '{"pin":"123456"}'`,
          { LEAD: lead },
        );
        assertError(confirm, 400, 4003, 'Bad Request', 'NO_PIN_PENDING');
      },
    );
  }

  test(
    'the profiles table lists every profile with the score ' + 'and number of accounts the sandbox bureau reports',
    async () => {
      assert.deepEqual(
        profileRows.map((r) => r.homoclave),
        [...SANDBOX_PROFILES],
      );
      const bureau = createSandboxBureau(systemClock);
      for (const row of profileRows) {
        const person = people.find((p) => p.profile === row.homoclave);
        assert.ok(person, `a test person for ${row.homoclave}`);
        const result = await bureau.query(
          { rfc: person.rfc } as Parameters<typeof bureau.query>[0],
          new AbortController().signal,
        );
        if (!result.ok) {
          assert.deepEqual([row.score, row.accounts], ['none', 'none'], row.homoclave);
          continue;
        }
        assert.equal(row.score === 'none' ? null : Number(row.score), result.value.report.score, row.homoclave);
        assert.equal(Number(/^\d+/.exec(row.accounts)?.[0]), result.value.report.accounts.length, row.homoclave);
      }
    },
  );

  test('every test person has a valid RFC, with a correct check digit, that selects its profile', () => {
    assert.deepEqual(
      people.map((p) => p.profile),
      [...SANDBOX_PROFILES],
    );
    for (const person of people) {
      assert.deepEqual(
        checkRfc(person.rfc, person.birthDate),
        { ok: true, normalized: person.rfc, warnings: [] },
        person.rfc,
      );
      assert.equal(sandboxProfileOf(person.rfc), person.profile);
    }
  });

  test('the whole lead uses the A1 person and the first address of the tables', () => {
    const personLine = wholeLead.find((l) => l.includes('/person"'))!;
    const { profile: _, ...a1 } = people[0];
    assert.deepEqual(parseCurl(personLine, { ...vars, LEAD: 'x' }).body, a1);
    const addressLine = wholeLead.find((l) => l.includes('/address"'))!;
    const { municipality: _m, state: _s, ...first } = addresses[0];
    assert.deepEqual(parseCurl(addressLine, { ...vars, LEAD: 'x' }).body, first);
  });
}

function sandboxGuideTests2() {
  test('after a resend, the guide’s PIN line reads the newest PIN, and it confirms', async () => {
    const lead = await readyLead(t);
    const send = wholeLead.find((l) => l.includes('/pin"'))!;
    const read = assignment(wholeLead.find((l) => l.startsWith('PIN='))!)!;
    const confirm = wholeLead.find((l) => l.includes('/pin/confirmation"'))!;
    for (let i = 0; i < 2; i++) assert.equal((await run(send, { LEAD: lead })).statusCode, 204);
    const messages = await run(read.curl, { LEAD: lead });
    assert.equal(messages.json().items.length, 2, show(messages));
    const pin = execFileSync('sh', ['-c', read.filter], { input: messages.body }).toString().trim();
    assert.equal(pin, pinFrom(messages.json().items[0].body), 'the newest message’s PIN');
    const confirmed = await run(confirm, { LEAD: lead, PIN: pin });
    assert.equal(confirmed.statusCode, 204, show(confirmed));
  });

  for (const person of people) {
    const expected = profileRows.find((r) => r.homoclave === person.profile)!['with the shipped rules'];
    test(`the whole lead with ${person.firstName} ${person.lastName} (${person.profile}): ${expected}`, async () => {
      const { profile: _, ...body } = person;
      const extra: Record<string, string> = {};
      let answer;
      for (const line of wholeLead) {
        // `LEAD=$(curl … | sed …)`: the curl is run, and the guide's own filter (run by sh) reads its answer.
        const assigned = assignment(line);
        const command = assigned?.curl ?? line;
        const call = parseCurl(command, { ...vars, ...extra });
        const res = command.includes('/person"')
          ? await t.app.inject({ method: 'POST', url: call.url, headers: call.headers, payload: body })
          : await run(command, extra);
        if (assigned)
          extra[assigned.name] = execFileSync('sh', ['-c', assigned.filter], { input: res.body }).toString().trim();
        if (call.url.endsWith('/messages'))
          assert.equal(extra.PIN, pinFrom(res.json().items[0].body), 'the guide reads the PIN');
        if (call.url.endsWith('/pin/confirmation')) answer = res;
        else assert.ok(res.statusCode < 300, `${line}\n${show(res)}`);
      }
      const lead = (await run(wholeLead.at(-1)!, extra)).json();
      const failure = /^PIN confirmation answers (\d{3}) \/ `(\d{6})`; the lead stays `(\w+)`/.exec(expected);
      if (failure) {
        assertError(answer!, Number(failure[1]), Number(failure[2]), 'Third-party message error');
        assert.equal(lead.status, failure[3]);
        return;
      }
      assert.equal(answer!.statusCode, 204, show(answer!));
      const decision = /^`(\w+)`/.exec(expected)![1];
      assert.equal(lead.status, decision);
      assert.equal(lead.prequalification.decision, decision);
      const reasons =
        decision === 'NOT_PREQUALIFIED' ? [...expected.split(':')[1].matchAll(/`(\w+)`/g)].map((m) => m[1]) : [];
      assert.deepEqual(
        lead.prequalification.reasons.map((r: { code: string }) => r.code),
        reasons,
      );
      const offer = /([\d.]+)% a year, (\d+) payments of ([\d,.]+)/.exec(expected);
      if (decision === 'PREQUALIFIED') {
        assert.ok(offer, `the documented offer of ${person.profile}`);
        assert.equal(lead.prequalification.offer.annualRate, Number(offer[1]));
        assert.equal(lead.prequalification.offer.term, Number(offer[2]));
        assert.equal(lead.prequalification.offer.monthlyPayment, Number(offer[3].replace(/,/g, '')));
      }
    });
  }

  for (const address of addresses) {
    test(`the address in ${address.zipCode} ${address.neighborhood} saves with a matched neighborhood`, async () => {
      const lead = await readyLead(t, { address: false });
      const { municipality, state, ...payload } = address;
      const res = await t.app.inject({
        method: 'PUT',
        url: `${api}/leads/${lead}/address`,
        headers: t.partner.headers,
        payload: Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== '')),
      });
      assert.equal(res.statusCode, 200, show(res));
      const read = (
        await t.app.inject({ method: 'GET', url: `${api}/leads/${lead}`, headers: t.partner.headers })
      ).json();
      assert.equal(read.address.neighborhoodMatched, true, JSON.stringify(read.address));
      assert.equal(read.address.municipality, municipality);
      assert.equal(read.address.state.name, state);
      assert.deepEqual(
        read.warnings.filter((w: { field: string }) => w.field.startsWith('address')),
        [],
      );
    });
  }
}

/** The guide's uploads, run as written: a PDF stands for the file each names. */
function documentGuideTests() {
  test('the guide’s rechazar- and aceptar- uploads are rejected and accepted at once', async () => {
    const { leadId, conditionIds } = await (await documentFixture(t)).conditionedLead();
    assert.equal(documentLines.length, 2);
    const data = await plainPdf();
    for (const line of documentLines) {
      const call = parseCurl(line, { ...vars, LEAD: leadId, CONDITION: conditionIds[0]! });
      const form = multipart(call.form!.map((p) => ('file' in p ? { name: p.name, fileName: p.file, data } : p)));
      const res = await t.app.inject({
        method: call.method as 'POST',
        url: call.url,
        payload: form.payload,
        headers: { ...call.headers, ...form.headers },
      });
      assert.equal(res.statusCode, 201, show(res));
      assert.equal(res.json().status, 'RECEIVED');
    }
    const list = await t.app.inject({
      method: 'GET',
      url: `${api}/leads/${leadId}/documents`,
      headers: t.partner.headers,
    });
    assert.deepEqual(
      list.json().items.map((d: { status: string; rejectionReason: string | null }) => [d.status, d.rejectionReason]),
      [
        ['REJECTED', 'ILLEGIBLE'],
        ['ACCEPTED', null],
      ],
    );
    const lead = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
    assert.equal(lead.json().outcome.conditions[0].status, 'ACCEPTED');
  });
}

describe('docs/sandbox.md against the sandbox', () => {
  before(async () => {
    t = await buildTestApp({ env: { AUTOFIN_ENV: 'sandbox' } });
    vars = { BASE: '', TOKEN: t.partner.token };
  });
  after(() => t?.close());
  sandboxGuideTests1();
  sandboxGuideTests2();
  documentGuideTests();
});
