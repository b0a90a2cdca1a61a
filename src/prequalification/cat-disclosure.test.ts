import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catDisclosure } from './cat-disclosure.ts';

const text = (cat: string, date: string) =>
  `CAT promedio ${cat}% sin IVA. Para fines informativos y de comparación. Fecha de cálculo: ${date}.`;

test('the CAT disclosure writes the CAT as the offer does and the day in Mexico City, in Spanish', () => {
  const cases: [number, string, string][] = [
    [18.7, '2026-03-05T18:00:00.000Z', text('18.7', '5 de marzo de 2026')],
    [21, '2026-12-31T12:00:00.000Z', text('21', '31 de diciembre de 2026')],
    // 02:00 UTC on January 1 is still December 31 in Mexico City (UTC-6).
    [35.42, '2027-01-01T02:00:00.000Z', text('35.42', '31 de diciembre de 2026')],
    [9.99, '2026-09-16T06:00:00.000Z', text('9.99', '16 de septiembre de 2026')],
  ];
  for (const [cat, at, expected] of cases) assert.equal(catDisclosure(cat, new Date(at)), expected);
});
