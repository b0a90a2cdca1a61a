import { Type } from 'typebox';

const example = {
  items: [
    {
      id: '7b2f4c1e-8d3a-4e6b-9f10-2a5c7d9e1b34',
      channel: 'SMS',
      to: '***********78',
      body: 'Tu código de verificación es 482913. Vence en 10 minutos. No lo compartas con nadie.',
      sentAt: '2026-01-15T12:05:00.000Z',
    },
    {
      id: '0c9e5a2d-1f7b-4c3e-8a64-5b2d9f0e7c81',
      channel: 'EMAIL',
      to: 'a***@example.com',
      body:
        'Hola:\n\nTu código de verificación es 731605.\n\nVence en 10 minutos. Si ' +
        'tú no lo solicitaste, ignora este mensaje y no lo compartas con nadie.',
      sentAt: '2026-01-15T12:00:00.000Z',
    },
  ],
};

export const SandboxMessageList = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          channel: Type.Enum(['SMS', 'EMAIL'] as const),
          to: Type.String({
            maxLength: 260,
            description:
              'The recipient, masked: a phone keeps its last 2 digits, an e-mail its first letter and domain',
          }),
          body: Type.String({
            maxLength: 4000,
            description: 'The message as sent, PIN included (for e-mail, its text)',
          }),
          sentAt: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 50, description: 'Newest first; at most the 50 newest' },
    ),
  },
  { additionalProperties: false, $id: 'SandboxMessageList', examples: [example] },
);
