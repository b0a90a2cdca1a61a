import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { textProblems, withoutData } from './page-text.ts';

const found = (text: string) => textProblems(text).map((p) => `${p.kind}: ${p.text}`);

describe('the words a console page must not show', () => {
  test('Spanish text, with the allowed acronyms and Spanish words English shares, has none', () => {
    const spanish =
      'Solicitudes Reportes Embudo del 1 al 28 de noviembre de 2026. Oferta: Monto a financiar $220,000.00, ' +
      'Plazo (meses) 48, Tasa anual (%) 13.9, Pago mensual, CAT (%) 18.5, IVA incluido. No cumple. ' +
      'Total de errores: 0; final del plazo; RFC, CURP, PDF, CSV, JSON, API, PIN, SMS, MXN, URL, ID. ' +
      'Transmisión manual. Un error real y normal. He revisado el archivo; has elegido la versión.';
    assert.deepEqual(found(spanish), []);
  });

  test('English words are found, in any case, each once', () => {
    assert.deepEqual(found('Lead created. The lead was VERIFIED; lead'), [
      'English: Lead',
      'English: created',
      'English: The',
      'English: lead',
      'English: was',
      'English: VERIFIED',
    ]);
  });

  test('field names, enum values and rule names are found by their shape', () => {
    assert.deepEqual(found('Dato: monthlyPayment; motivo PAYMENT_TO_INCOME, regla payment-to-income, make_id, make'), [
      'camelCase: monthlyPayment',
      'snake_case: make_id',
      'SCREAMING_SNAKE_CASE: PAYMENT_TO_INCOME',
      'kebab-case: payment-to-income',
      'English: make',
    ]);
    assert.deepEqual(found('Valor: [object Object]'), ['a structure written out: [object Object]']);
  });

  test('data is not the console’s text: addresses, e-mails, ids and hashes are dropped', () => {
    const text =
      'https://crm.lender.example/hooks admin@lender.mx 0b1c2d3e-aaaa-4bbb-8ccc-123456789abc ' +
      'sha256:0123456789abcdef 9f86d081884c7d65 ck_0123456789abcdef ck_yRKq3-Be_Tz9a4LmQ0w1';
    assert.equal(withoutData(text).trim(), '');
    assert.deepEqual(found(text), []);
  });
});
