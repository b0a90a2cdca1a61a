import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskDestination } from './mask.ts';

test('a PIN destination keeps only the last four digits or the first letter and the domain', () => {
  const cases: [Parameters<typeof maskDestination>, string | null][] = [
    [['SMS', '5512345678'], '******5678'],
    [['SMS', '+52 55 1234 5678'], '********5678'],
    [['EMAIL', 'ana.lopez@example.com'], 'a***@example.com'],
    [['EMAIL', 'not-an-email'], '***'],
    [['SMS', null], null],
  ];
  for (const [args, expected] of cases) assert.equal(maskDestination(...args), expected, JSON.stringify(args));
});
