import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountRequested, applicantName, vehicleName } from './applicant.ts';

test('the applicant by name, the amount to finance and the vehicle; "—" or null while unknown', () => {
  const person = { firstName: 'Anacleta', secondName: '', lastName: 'Zubizarreta', secondLastName: 'Quiñones' };
  assert.equal(applicantName(person), 'Anacleta Zubizarreta Quiñones');
  assert.equal(applicantName(null), '—');
  assert.equal(amountRequested({ price: 340000 }, { downPayment: 100000 }), 240000);
  assert.equal(amountRequested({ price: null }, { downPayment: 100000 }), null);
  assert.equal(amountRequested({ price: 340000 }, {}), null);
  assert.equal(amountRequested(null, null), null);
  const vehicle = { price: 1, year: 2024, brand: { name: 'Nissan' }, model: { name: 'Versa' }, version: 'Advance' };
  assert.equal(vehicleName(vehicle), 'Nissan Versa Advance 2024');
  assert.equal(vehicleName(null), '—');
});
