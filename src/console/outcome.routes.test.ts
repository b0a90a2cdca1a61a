/**
 * The console's decision form: as many condition rows as the API takes, the first ones open and the
 * rest behind a native disclosure, every field labelled; only rows with a detail become conditions.
 * Amounts typed as the console writes them; refusals answered on the lead's page, in Spanish, beside
 * their fields, with what was typed; no form where nothing can change.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient, type ConsoleClient } from '../../test/console-client.ts';
import { codesAndDescriptions, leadCopies, operatorOutcome, type LeadCopies } from '../../test/outcome-fixture.ts';
import { CONDITION_CODES } from '../outcomes/index.ts';

const password = 'correct horse battery';

let t: TestApp;
let officer: ConsoleClient;
let copy: LeadCopies;

const conditionForm = (details: (string | undefined)[]) =>
  Object.fromEntries(
    details.flatMap((detail, i) => [
      [`conditionCode${i}`, CONDITION_CODES[i % CONDITION_CODES.length]],
      [`conditionDescription${i}`, detail ?? ''],
    ]),
  );

describe('operator console: the decision form', () => {
  before(async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/operators',
      headers: t.admin,
      payload: { name: 'Olga officer', role: 'officer', email: 'olga@lender.mx', password },
    });
    assert.equal(res.statusCode, 201, show(res));
    officer = consoleClient(t.app);
    await officer.signIn('olga@lender.mx', password);
    copy = await leadCopies(t);
  });
  after(() => t.close());

  decisionFormTests();
  refusalTests();
});

/** The condition rows of the decision form. */
function decisionFormTests(): void {
  test('offers ten labelled condition rows, the fourth to the tenth behind "Más condiciones"', async () => {
    const leadId = await copy();
    const page = await officer.get(`/console/leads/${leadId}`);
    assert.equal(page.statusCode, 200, show(page));
    for (let i = 0; i < 10; i++) {
      assert.match(
        page.body,
        new RegExp(
          `<label for="conditionCode${i}">Condición ${i + 1}</label>` +
            `<select id="conditionCode${i}" name="conditionCode${i}">`,
        ),
      );
      assert.match(
        page.body,
        new RegExp(
          `<label for="conditionDescription${i}">Detalle de la condición ${i + 1}</label>` +
            `<input id="conditionDescription${i}"`,
        ),
      );
    }
    assert.doesNotMatch(page.body, /conditionCode10/);
    const disclosure = /<details>\s*<summary>Más condiciones \(4 a 10\)<\/summary>([\s\S]*?)<\/details>/.exec(
      page.body,
    );
    assert.ok(disclosure, 'rows 4 to 10 are behind a disclosure');
    assert.match(disclosure[1], /id="conditionCode3"/);
    assert.doesNotMatch(disclosure[1], /id="conditionCode2"/);
  });

  test('all ten rows filled make ten conditions', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const details = Array.from({ length: 10 }, (_, i) => `Condición número ${i + 1}`);
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'CONDITIONED',
      ...conditionForm(details),
    });
    assert.equal(res.statusCode, 303, show(res));
    const outcome = await operatorOutcome(t, leadId);
    assert.deepEqual(
      codesAndDescriptions(outcome?.conditions),
      details.map((description, i) => ({
        code: CONDITION_CODES[i % CONDITION_CODES.length],
        description,
      })),
    );
  });

  test('rows without a detail are left out, wherever they are', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const details = [
      undefined,
      'Enganche de 30%',
      ' ',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'Aval',
    ];
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'CONDITIONED',
      ...conditionForm(details),
    });
    assert.equal(res.statusCode, 303, show(res));
    const outcome = await operatorOutcome(t, leadId);
    assert.deepEqual(codesAndDescriptions(outcome?.conditions), [
      { code: CONDITION_CODES[1 % CONDITION_CODES.length], description: 'Enganche de 30%' },
      { code: CONDITION_CODES[9 % CONDITION_CODES.length], description: 'Aval' },
    ]);
  });
}

/** The decision card's text as a person reads it: no tags, entities decoded, spaces collapsed. */
function decisionText(body: string): string {
  const section = /<section aria-labelledby="decision-credito"[\s\S]*?<\/section>/.exec(body)?.[0] ?? '';
  return section
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** A field's message, shown right after the field it concerns and tied to it. */
function assertBeside(body: string, field: string, message: string): void {
  const control = new RegExp(`name="${field}"[^>]*aria-invalid="true" aria-describedby="${field}-error"`);
  assert.match(body, control, `${field} is marked`);
  const shown = new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(body)?.[1];
  assert.equal(shown?.replace(/&#39;/g, "'"), message);
}

/** Words of the API that must not reach a page. */
const apiWords = /\b(is|must|required|status|amount\w*|reasonCode|conditions|note|APPROVED|IN_REVIEW|FUNDED)\b/;

/** Amounts as typed, refused submissions and closed decisions. */
function refusalTests(): void {
  test('"$250,000.00" is saved as 250000, and shown back as "$250,000.00"', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'APPROVED',
      amountApproved: '$250,000.00',
    });
    assert.equal(res.statusCode, 303, show(res));
    assert.equal((await operatorOutcome(t, leadId))?.amountApproved, 250000);
    const page = await officer.get(`/console/leads/${leadId}`);
    assert.match(decisionText(page.body), /Monto aprobado \$250,000\.00/);
  });

  test('a refused form answers 400 with the Spanish beside its field and every value kept', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'APPROVED',
      reasonCode: 'CREDIT_POLICY',
      amountApproved: '',
      note: 'Llamar el <lunes>',
      conditionCode1: 'CO_SIGNER',
      conditionDescription1: 'Aval con casa propia',
    });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'amountApproved', 'Una decisión «Aprobada» lleva el monto aprobado.');
    assertBeside(res.body, 'reasonCode', 'Una decisión «Aprobada» no lleva el motivo.');
    assert.match(res.body, /<fieldset aria-describedby="conditions-error"><legend>/);
    assert.match(
      res.body,
      /<p class="field-error" id="conditions-error">Solo una decisión «Condicionada» lleva las condiciones\.<\/p>/,
    );
    assert.match(res.body, /<option value="APPROVED" selected>Aprobada<\/option>/);
    assert.match(res.body, /<option value="CREDIT_POLICY" selected>Política de crédito<\/option>/);
    assert.match(res.body, /<textarea id="note"[^>]*>Llamar el &lt;lunes&gt;<\/textarea>/);
    assert.match(res.body, /<option value="CO_SIGNER" selected>Aval<\/option>/);
    assert.match(
      res.body,
      /id="conditionDescription1" name="conditionDescription1" maxlength="200" value="Aval con casa propia"/,
    );
    assert.match(res.body, /No se guardó la decisión: revisa los datos marcados\./);
    assert.doesNotMatch(decisionText(res.body), apiWords);
    assert.equal(await operatorOutcome(t, leadId), null, 'nothing was saved');
  });

  test('an amount that is not one is refused beside it, as typed, with the other fields checked too', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'APPROVED',
      amountApproved: 'doscientos mil',
      note: 'x'.repeat(1001),
    });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'amountApproved', 'Escribe un monto en pesos, por ejemplo $250,000.00.');
    assertBeside(res.body, 'note', 'Escribe a lo más 1000 caracteres.');
    assert.match(res.body, /name="amountApproved" inputmode="decimal" value="doscientos mil"/);
    assert.doesNotMatch(decisionText(res.body), apiWords);
  });

  test('a condition refused is shown beside its own row, wherever it is', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'CONDITIONED',
      ...conditionForm([undefined, 'Enganche de 30%', undefined, undefined, undefined, 'y'.repeat(201)]),
    });
    assert.equal(res.statusCode, 400, show(res));
    assertBeside(res.body, 'conditionDescription5', 'Escribe a lo más 200 caracteres.');
    assert.match(res.body, /<details open>/, 'the rows behind the disclosure are open to show it');
    assert.match(res.body, /name="conditionDescription1" maxlength="200" value="Enganche de 30%"/);
  });

  test('a move the decision does not allow is 409, naming the ones it does, with the values kept', async () => {
    const leadId = await copy();
    await officer.get(`/console/leads/${leadId}`);
    const approved = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'APPROVED',
      amountApproved: '250000',
    });
    assert.equal(approved.statusCode, 303, show(approved));
    await officer.get(`/console/leads/${leadId}`);
    const res = await officer.post(`/console/leads/${leadId}/outcome`, {
      status: 'IN_REVIEW',
      note: 'Revisar de nuevo',
    });
    assert.equal(res.statusCode, 409, show(res));
    assertBeside(
      res.body,
      'status',
      'Una decisión «Aprobada» solo puede cambiar a «Rechazada», «Fondeada» o «Retirada».',
    );
    assert.match(res.body, /<option value="IN_REVIEW" selected>En revisión<\/option>/);
    assert.match(res.body, />Revisar de nuevo<\/textarea>/);
    assert.equal((await operatorOutcome(t, leadId))?.status, 'APPROVED');
  });

  test('no form where nothing can change: a final decision, a lead not verified', async () => {
    const funded = await copy();
    await officer.get(`/console/leads/${funded}`);
    const steps: Record<string, string>[] = [
      { status: 'APPROVED', amountApproved: '250000' },
      { status: 'FUNDED', amountFunded: '$245,000.50' },
    ];
    for (const body of steps) {
      const res = await officer.post(`/console/leads/${funded}/outcome`, body);
      assert.equal(res.statusCode, 303, show(res));
      await officer.get(`/console/leads/${funded}`);
    }
    const closed = await officer.get(`/console/leads/${funded}`);
    assert.doesNotMatch(closed.body, /Guardar decisión/);
    assert.match(decisionText(closed.body), /Sin formulario de decisión: la decisión «Fondeada» es final\./);
    assert.match(decisionText(closed.body), /Monto fondeado \$245,000\.50/);

    const unverified = await copy({ status: 'IN_PROGRESS' });
    const page = await officer.get(`/console/leads/${unverified}`);
    assert.doesNotMatch(page.body, /Guardar decisión/);
    assert.match(decisionText(page.body), /Sin formulario de decisión: la solicitud aún no está verificada/);
    const forged = await officer.post(`/console/leads/${unverified}/outcome`, { status: 'IN_REVIEW' });
    assert.equal(forged.statusCode, 409, show(forged));
    assert.match(decisionText(forged.body), /Sin formulario de decisión: la solicitud aún no está verificada/);
  });
}
