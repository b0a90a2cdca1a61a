import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pinEmail, pinSms } from './pin-message.ts';
import { pinFrom } from '../../test/lead-fixture.ts';

const pins = ['482913', '000000', '000010', '100000', '999999', '600600'];
// Words every Spanish PIN message should carry; an English template would miss them.
const spanish = /código de verificación/i;
const link = /https?:|www\.|\.(com|mx|net|org)\b|\/\//i;

test(
  'the SMS goes to the given number and carries the PIN ' + 'as its only 6-digit number, in Spanish, with no link',
  () => {
    for (const pin of pins) {
      const sms = pinSms('+525512345678', pin);
      assert.equal(sms.to, '+525512345678');
      assert.equal(pinFrom(sms), pin, sms.body);
      assert.match(sms.body, spanish);
      assert.doesNotMatch(sms.body, link);
    }
  },
);

test('the e-mail goes to the given address, and subject and text carry the PIN once, in Spanish, with no link', () => {
  for (const pin of pins) {
    const email = pinEmail('ana@example.com', pin);
    assert.equal(email.to, 'ana@example.com');
    assert.equal(pinFrom(email), pin, email.text);
    assert.equal(pinFrom(`${email.subject}\n${email.text}`), pin, 'the subject carries no other 6-digit number');
    assert.match(email.subject, spanish);
    assert.match(email.text, spanish);
    assert.doesNotMatch(`${email.subject}\n${email.text}`, link);
  }
});

test('pinFrom refuses a message with no PIN or with two', () => {
  assert.throws(() => pinFrom('sin código'));
  assert.throws(() => pinFrom('123456 y 654321'));
  assert.equal(pinFrom('vence en 10 minutos: 123456'), '123456');
});
