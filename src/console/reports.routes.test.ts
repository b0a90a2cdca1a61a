import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, show, type TestApp } from '../../test/helper.ts';
import { consoleClient, consoleOperator, type ConsoleClient } from '../../test/console-client.ts';
import { verifiedLead } from '../../test/lender-fixture.ts';
import { readyLead } from '../../test/lead-fixture.ts';

const password = 'correct horse battery';
/** Today in Mexico City, as the filters take it (en-CA writes YYYY-MM-DD). */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
/** The visible text of a piece of markup, tags dropped and spaces collapsed. */
const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('operator console: the funnel report', () => {
  let t: TestApp;
  let analyst: ConsoleClient;

  before(async () => {
    t = await buildTestApp({ database: 'own' });
    const email = await consoleOperator(t.app, t.admin, 'analyst', password);
    analyst = consoleClient(t.app);
    assert.equal((await analyst.signIn(email, password)).statusCode, 303);
    // Two leads created, one of them verified: half the created ones reach "Verificadas".
    await readyLead(t);
    await verifiedLead(t, 'SMS');
  });
  after(() => t.close());

  test('the heading names its days in Spanish, the month and year once', async () => {
    const res = await analyst.get('/console/reports?from=2000-01-01&to=9999-12-31');
    assert.equal(res.statusCode, 200, show(res));
    assert.match(res.body, /<h2 id="embudo">Embudo del 1 de enero de 2000 al 31 de diciembre de 9999<\/h2>/);
    const day = today();
    const oneDay = await analyst.get(`/console/reports?from=${day}&to=${day}`);
    assert.equal(oneDay.statusCode, 200, show(oneDay));
    const [year, , date] = day.split('-').map(Number);
    assert.match(oneDay.body, new RegExp(`<h2 id="embudo">Embudo del ${date} de [a-z]+ de ${year}</h2>`));
    assert.doesNotMatch(oneDay.body, /Embudo del \d{4}-/);
  });

  test('each stage is a percentage of the one before it, "—" after a stage with none', async () => {
    const res = await analyst.get('/console/reports');
    assert.equal(res.statusCode, 200, show(res));
    const table = /<caption>Conversión entre etapas<\/caption>[\s\S]*?<\/table>/.exec(res.body)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr><th scope="row">[\s\S]*?<\/tr>/g)].map((m) => text(m[0]));
    assert.equal(rows.length, 4, table);
    assert.equal(rows[0], 'Creadas → Verificadas 1 de 2 50%');
    assert.match(rows[1]!, /^Verificadas → Precalificadas \d de 1 (0|100)%$/);
    assert.match(rows[2]!, /^Precalificadas → Aprobadas 0 de [01] (0%|—)$/);
    // No lead was approved: funded over approved has no percentage.
    assert.equal(rows[3], 'Aprobadas → Fondeadas 0 de 0 —');
  });

  test('a "Hasta" before "Desde" is refused beside the field, 400, the typed days kept', async () => {
    const res = await analyst.get('/console/reports?from=2026-11-28&to=2026-11-01&companyId=');
    assert.equal(res.statusCode, 400, show(res));
    assert.match(res.body, /role="alert">No se generó el reporte: revisa las fechas marcadas\./);
    assert.match(res.body, /<input id="from" name="from" type="date" value="2026-11-28">/);
    assert.match(
      res.body,
      /<input id="to" name="to" type="date" value="2026-11-01" aria-invalid="true" aria-describedby="to-error">/,
    );
    const refusal = '«Hasta» es anterior a «Desde»: elige el 28 de noviembre de 2026 o un día posterior.';
    assert.ok(res.body.includes(`<p class="field-error" id="to-error">${refusal}</p>`), res.body);
    assert.doesNotMatch(res.body, /id="embudo"/);
  });

  test('a day that does not exist is refused beside its own field', async () => {
    const res = await analyst.get('/console/reports?from=2026-02-30&to=2026-03-01');
    assert.equal(res.statusCode, 400, show(res));
    assert.match(res.body, /<p class="field-error" id="from-error">La fecha «Desde» no existe: 2026-02-30\./);
    assert.match(res.body, /value="2026-02-30" aria-invalid="true"/);
    assert.doesNotMatch(res.body, /id="to-error"/);
  });
});
