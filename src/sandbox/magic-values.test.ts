import { test } from 'node:test';
import assert from 'node:assert/strict';
import { magicFailure } from './magic-values.ts';
import { maskEmail, maskRecipient } from './recipient-mask.ts';

test('magic recipients name their failure; every other recipient, or the other channel, none', () => {
  const cases: [channel: 'SMS' | 'EMAIL', recipient: string, expected: string | undefined][] = [
    ['SMS', '5500000001', 'timeout'],
    ['SMS', '5500000002', 'rejected'],
    ['SMS', '5500000003', 'error'],
    ['SMS', '5500000004', undefined],
    ['SMS', '5512345678', undefined],
    ['SMS', 'toString', undefined],
    ['EMAIL', 'fail-timeout@sandbox.autofin.invalid', 'timeout'],
    ['EMAIL', 'FAIL-REJECTED@Sandbox.Autofin.Invalid', 'rejected'],
    ['EMAIL', 'fail-error@sandbox.autofin.invalid', 'error'],
    ['EMAIL', 'fail-error@sandbox.autofin.invalid.mx', undefined],
    ['EMAIL', 'constructor', undefined],
    ['EMAIL', '5500000001', undefined],
    ['SMS', 'fail-error@sandbox.autofin.invalid', undefined],
  ];
  for (const [channel, recipient, expected] of cases)
    assert.equal(magicFailure(channel, recipient), expected, `${channel} ${recipient}`);
});

test(
  'recipients are masked as the logs mask them: a phone to its ' +
    'last 2 digits, an e-mail to its first letter and domain',
  () => {
    assert.equal(maskRecipient('SMS', '+525512345678'), '***********78');
    assert.equal(maskRecipient('EMAIL', 'ana.lopez@example.com'), 'a***@example.com');
    assert.equal(maskEmail('x@b.mx'), 'x***@b.mx');
    assert.equal(maskEmail('no-at-sign'), '***');
    assert.equal(maskEmail('@example.com'), '***');
  },
);
