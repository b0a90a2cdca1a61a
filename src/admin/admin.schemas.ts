import { Type } from 'typebox';
import { uuidPattern } from '../shared/ids.ts';

export const CompanyCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { $id: 'CompanyCreate', additionalProperties: false },
);

export const Company = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String(), createdAt: Type.String({ format: 'date-time' }) },
  { $id: 'Company' },
);

export const CompanyList = Type.Object({ items: Type.Array(Company) }, { $id: 'CompanyList' });

export const CredentialSecret = Type.Object(
  {
    consumer_key: Type.String(),
    consumer_secret: Type.String({ description: 'Shown only in this answer; stored as a hash.' }),
  },
  { $id: 'CredentialSecret' },
);

export const AffiliateCreate = Type.Object(
  {
    user_id: Type.Optional(Type.String({ pattern: uuidPattern, description: 'Generated when absent.' })),
    user_type: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { $id: 'AffiliateCreate', additionalProperties: false },
);

export const Affiliate = Type.Object(
  { user_id: Type.String({ format: 'uuid' }), user_type: Type.String(), companyId: Type.String({ format: 'uuid' }) },
  { $id: 'Affiliate' },
);

export const CompanyIdParams = Type.Object({ companyId: Type.String({ pattern: uuidPattern }) });
export const ConsumerKeyParams = Type.Object({ consumer_key: Type.String({ minLength: 1, maxLength: 128 }) });
