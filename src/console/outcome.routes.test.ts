/**
 * The console's decision form: as many condition rows as the API takes, the first ones open and the
 * rest behind a native disclosure, every field labelled; only rows with a detail become conditions.
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
