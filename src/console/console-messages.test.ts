import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldMessage, transitionMessage } from './console-messages.ts';

test('every refusal of the outcome rules and schema reads in Spanish, naming the field in Spanish', () => {
  const cases: [string, string, string][] = [
    ['amountApproved', 'is required when status is APPROVED', 'Una decisión «Aprobada» lleva el monto aprobado.'],
    ['amountFunded', 'is only taken when status is FUNDED', 'Solo una decisión «Fondeada» lleva el monto fondeado.'],
    ['reasonCode', 'is not taken when status is FUNDED', 'Una decisión «Fondeada» no lleva el motivo.'],
    [
      'amountFunded',
      'must be at most the approved amount (250000)',
      'El monto fondeado no puede pasar del aprobado ($250,000.00).',
    ],
    ['amountApproved', 'must be > 0', 'El monto aprobado debe ser mayor que cero.'],
    ['amountApproved', 'must be <= 100000000', 'El monto aprobado no puede pasar de $100,000,000.00.'],
    ['conditions.3.description', 'must be at most 200 characters', 'Escribe a lo más 200 caracteres.'],
    ['status', 'must be one of: IN_REVIEW, APPROVED', 'Elige la decisión de la lista.'],
    ['status', 'is required', 'Falta la decisión.'],
    ['somethingElse', 'is odd', 'Revisa este dato.'],
    ['name', 'must not be blank', 'Falta el nombre.'],
    ['email', 'is already used by another operator', 'Ese correo electrónico ya es de otro operador.'],
    ['url', 'must use http or https', 'La dirección debe usar http o https.'],
    ['email', 'is not an e-mail address', 'Escribe un correo electrónico completo, como nombre@empresa.mx.'],
    ['password', 'must have 12 characters or more', 'Escribe al menos 12 caracteres.'],
    ['user_type', 'must be one of: SELLER, DEALER', 'Elige el tipo de afiliado de la lista.'],
    ['user_id', 'must be unique: this user is already an affiliate', 'Ese usuario ya es afiliado.'],
    [
      'url',
      'must point to a public address, not a private, link-local, metadata, reserved or other special-purpose one',
      'La dirección debe ser pública: no privada, local ni reservada.',
    ],
  ];
  for (const [field, errorDetail, message] of cases) assert.equal(fieldMessage({ field, errorDetail }), message);
});

test('a refused move names the moves allowed', () => {
  assert.equal(
    transitionMessage('IN_REVIEW', true),
    'Una decisión «En revisión» solo puede cambiar a «Condicionada», «Aprobada», «Rechazada» o «Retirada».',
  );
  assert.equal(transitionMessage('FUNDED', true), 'La decisión «Fondeada» es final: ya no cambia.');
  assert.match(transitionMessage(null, false), /^La solicitud aún no está verificada/);
  assert.match(transitionMessage(null, true), /^La primera decisión puede ser «En revisión», /);
});
