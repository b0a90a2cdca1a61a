import { Type } from 'typebox';
import { uuidPattern } from '../shared/index.ts';

export const CompanyCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { $id: 'CompanyCreate', additionalProperties: false, examples: [{ name: 'Autos del Bajío' }] },
);

export const Company = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String(), createdAt: Type.String({ format: 'date-time' }) },
  {
    $id: 'Company',
    examples: [
      { id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', name: 'Autos del Bajío', createdAt: '2026-01-15T12:00:00.000Z' },
    ],
  },
);

export const CompanyList = Type.Object(
  { items: Type.Array(Company) },
  {
    $id: 'CompanyList',
    examples: [
      {
        items: [
          {
            id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
            name: 'Autos del Bajío',
            createdAt: '2026-01-15T12:00:00.000Z',
          },
        ],
      },
    ],
  },
);

export const CredentialSecret = Type.Object(
  {
    consumer_key: Type.String(),
    consumer_secret: Type.String({ description: 'Shown only in this answer; stored as a hash.' }),
  },
  {
    $id: 'CredentialSecret',
    examples: [
      {
        consumer_key: 'ck_Xq3v9LmT2pR8sW1yZ4bN6cD0',
        consumer_secret: 'cs_q8Vn2Lw5Rt7Yp1Kd4Hs9Jf3Gb6Mc0Xz2Ae5Ui8Oo1Pl',
      },
    ],
  },
);

export const AffiliateCreate = Type.Object(
  {
    user_id: Type.Optional(Type.String({ pattern: uuidPattern, description: 'Generated when absent.' })),
    user_type: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { $id: 'AffiliateCreate', additionalProperties: false, examples: [{ user_type: 'SELLER' }] },
);

export const Affiliate = Type.Object(
  { user_id: Type.String({ format: 'uuid' }), user_type: Type.String(), companyId: Type.String({ format: 'uuid' }) },
  {
    $id: 'Affiliate',
    examples: [
      {
        user_id: '3f0c2a4e-9a53-4f4b-8d1e-0b6f6a2c9d10',
        user_type: 'SELLER',
        companyId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
      },
    ],
  },
);

export const CredentialSummary = Type.Object(
  {
    consumer_key: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'null while the credential is active',
    }),
  },
  {
    $id: 'CredentialSummary',
    examples: [{ consumer_key: 'ck_Xq3v9LmT2pR8sW1yZ4bN6cD0', createdAt: '2026-01-15T12:00:00.000Z', revokedAt: null }],
  },
);

export const CredentialList = Type.Object(
  { items: Type.Array(CredentialSummary) },
  {
    $id: 'CredentialList',
    examples: [
      {
        items: [
          { consumer_key: 'ck_Xq3v9LmT2pR8sW1yZ4bN6cD0', createdAt: '2026-01-15T12:00:00.000Z', revokedAt: null },
        ],
      },
    ],
  },
);

export const AffiliateList = Type.Object(
  { items: Type.Array(Affiliate) },
  {
    $id: 'AffiliateList',
    examples: [
      {
        items: [
          {
            user_id: '3f0c2a4e-9a53-4f4b-8d1e-0b6f6a2c9d10',
            user_type: 'SELLER',
            companyId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
          },
        ],
      },
    ],
  },
);

export const CompanyIdParams = Type.Object({ companyId: Type.String({ pattern: uuidPattern }) });
export const ConsumerKeyParams = Type.Object({ consumer_key: Type.String({ minLength: 1, maxLength: 128 }) });
