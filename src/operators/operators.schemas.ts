import { Type } from 'typebox';
import { uuidPattern, ROLES } from '../shared/index.ts';

const role = Type.Enum([...ROLES], {
  description: '`admin` manages everything; `analyst` reads and exports leads; `officer` also sets their outcomes',
});
const example = {
  id: '9b2f4c1e-3d5a-4e6f-8a7b-1c2d3e4f5a6b',
  name: 'Ana (crédito)',
  role: 'analyst',
  email: 'ana@lender.example',
  createdAt: '2026-01-15T12:00:00.000Z',
};

export const OperatorCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    role,
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    password: Type.Optional(
      Type.String({ minLength: 12, maxLength: 200, description: '12+ characters; requires `email`' }),
    ),
  },
  {
    $id: 'OperatorCreate',
    additionalProperties: false,
    examples: [{ name: 'Ana (crédito)', role: 'analyst', email: 'ana@lender.example' }],
  },
);

const fields = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role,
  email: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
};

export const Operator = Type.Object(fields, { $id: 'Operator', examples: [example] });

export const OperatorWithKey = Type.Object(
  {
    ...fields,
    key: Type.String({ description: 'The operator key (`op_…`), shown only in this answer; stored as a hash.' }),
  },
  { $id: 'OperatorWithKey', examples: [{ ...example, key: 'op_q8Vn2Lw5Rt7Yp1Kd4Hs9Jf3Gb6Mc0Xz2Ae5Ui8Oo1Pl' }] },
);

export const OperatorList = Type.Object(
  { items: Type.Array(Operator) },
  { $id: 'OperatorList', examples: [{ items: [example] }] },
);

export const OperatorIdParams = Type.Object({ operatorId: Type.String({ pattern: uuidPattern }) });
