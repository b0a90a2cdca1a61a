import { Type } from 'typebox';

export const NipSendRequest = Type.Object(
  { channel: Type.Enum(['SMS', 'EMAIL'] as const, { description: 'SMS to the lead’s phone, EMAIL to its e-mail' }) },
  { additionalProperties: false, $id: 'NipSendRequest', examples: [{ channel: 'SMS' }] },
);

export const PinConfirmationPayload = Type.Object(
  {
    pin: Type.String({ pattern: '^[0-9]{6}$', description: 'The 6 digits the person received' }),
    pinConfirmation: Type.Optional(Type.String({ maxLength: 6, description: 'When present, must equal `pin`' })),
  },
  {
    additionalProperties: false,
    $id: 'PinConfirmationPayload',
    examples: [{ pin: '482913', pinConfirmation: '482913' }],
  },
);
