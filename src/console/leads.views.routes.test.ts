import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';
import { verifiedLead } from '../../test/lender-fixture.ts';
import { pinApi } from '../../test/lead-fixture.ts';
import { percent } from './format.ts';

const password = 'correct horse battery';
const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

interface RuleRead {
  rule: string;
  outcome: string;
  inputs: Record<string, number> | null;
  reason: { message: string } | null;
}

describe('operator console: the offer and the explanation on a lead page', () => {
  let t: TestApp;
  let officer: ConsoleClient;
  const lenderRead = async (leadId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/admin/leads/${leadId}`, headers: t.admin });
    assert.equal(res.statusCode, 200, show(res));
    return res.json() as {
      prequalification: { offer: { monthlyPayment: number } | null };
      explanation: { rules: RuleRead[] };
    };
  };
  /** The explanation's row of the payment-to-income rule, as its cells' text. */
  const paymentRow = (body: string) =>
    text(/<tr[^>]*><td>Pago respecto al ingreso<\/td>[\s\S]*?<\/tr>/.exec(body)?.[0] ?? '');

  before(async () => {
    t = await buildTestApp({ database: 'own' });
    const email = await consoleOperator(t.app, t.admin, 'officer', password);
    officer = consoleClient(t.app);
    assert.equal((await officer.signIn(email, password)).statusCode, 303);
  });
  after(() => t.close());

  test('the offer reads Monto, Plazo, Tasa, Pago, CAT, the CAT disclosure under it', async () => {
    const { leadId, partner } = await verifiedLead(t, 'SMS');
    const read = await lenderRead(leadId);
    assert.ok(read.prequalification.offer, 'the default lead is pre-qualified with an offer');
    const { catDisclosure } = (await pinApi(t, partner).read(leadId)).prequalification.offer;
    const res = await officer.get(`/console/leads/${leadId}`);
    assert.equal(res.statusCode, 200, show(res));
    const offer = /<h3>Oferta<\/h3><dl class="facts">([\s\S]*?)<\/dl><p>([^<]*)<\/p>/.exec(res.body);
    assert.ok(offer, res.body);
    const terms = [...offer[1]!.matchAll(/<dt>([^<]*)<\/dt>/g)].map((m) => m[1]);
    assert.deepEqual(terms, ['Monto a financiar', 'Plazo (meses)', 'Tasa anual (%)', 'Pago mensual', 'CAT (%)']);
    // The very text the partner is given; it holds nothing HTML escapes, so the page shows it as it is.
    assert.match(catDisclosure, /^CAT promedio /);
    assert.doesNotMatch(catDisclosure, /[&<>"']/);
    assert.equal(offer[2], catDisclosure);

    // The ratio is this loan's payment plus the reported debts over the income.
    const rule = read.explanation.rules.find((r) => r.rule === 'payment-to-income')!;
    const ratio =
      (read.prequalification.offer.monthlyPayment + rule.inputs!.reportedMonthlyDebts!) / rule.inputs!.income!;
    const row = paymentRow(res.body);
    assert.ok(row.includes(`${percent(ratio)} del ingreso`), row);
    assert.doesNotMatch(res.body, /<tr class="rule-fail">/);
  });

  test('a failed rule stands out, with the share of the income it computed', async () => {
    const { leadId } = await verifiedLead(t, 'SMS', { income: 9_000 });
    const read = await lenderRead(leadId);
    const rule = read.explanation.rules.find((r) => r.rule === 'payment-to-income')!;
    assert.equal(rule.outcome, 'fail', JSON.stringify(rule));
    // The refusal's message names the threshold only; the payment the rule computed is among its inputs.
    assert.doesNotMatch(rule.reason!.message, /9,?000|\d+\.\d\d/);
    const { loanMonthlyPayment, reportedMonthlyDebts, income } = rule.inputs!;
    assert.ok(loanMonthlyPayment! > 0, JSON.stringify(rule.inputs));
    const ratio = (loanMonthlyPayment! + reportedMonthlyDebts!) / income!;
    const res = await officer.get(`/console/leads/${leadId}`);
    assert.equal(res.statusCode, 200, show(res));
    assert.match(
      res.body,
      /<tr class="rule-fail"><td>Pago respecto al ingreso<\/td><td><strong class="rule-fail">No cumple<\/strong><\/td>/,
    );
    const row = paymentRow(res.body);
    assert.ok(row.includes(`${percent(ratio)} del ingreso`), row);
    assert.match(row, /Pago máximo respecto al ingreso: \d+%/);
  });
});
