/** SQL for companies, affiliates and credentials. Every method takes an optional transaction. */
import type { Queryable } from '../db/index.ts';

export interface Company {
  id: string;
  name: string;
  createdAt: Date;
}

export interface Affiliate {
  userId: string;
  companyId: string;
  userType: string;
}

export interface Credential {
  consumerKey: string;
  companyId: string;
  secretHash: string;
  revokedAt: Date | null;
}

export interface CredentialSummary {
  consumerKey: string;
  createdAt: Date;
  revokedAt: Date | null;
}

type CompanyRow = { id: string; name: string; created_at: Date };
const toCompany = (r: CompanyRow): Company => ({ id: r.id, name: r.name, createdAt: r.created_at });
type AffiliateRow = { user_id: string; company_id: string; user_type: string };
const toAffiliate = (r: AffiliateRow): Affiliate => ({
  userId: r.user_id,
  companyId: r.company_id,
  userType: r.user_type,
});
type CredentialRow = { consumer_key: string; company_id: string; secret_hash: string; revoked_at: Date | null };

export function createCompaniesRepository(db: Queryable) {
  return {
    async insertCompany(company: { id: string; name: string }, tx: Queryable = db): Promise<Company> {
      const { rows } = await tx.query<CompanyRow>(
        'insert into companies (id, name) values ($1, $2) returning id, name, created_at',
        [company.id, company.name],
      );
      return toCompany(rows[0]);
    },

    async listCompanies(tx: Queryable = db): Promise<Company[]> {
      const { rows } = await tx.query<CompanyRow>('select id, name, created_at from companies order by created_at, id');
      return rows.map(toCompany);
    },

    async findCompany(id: string, tx: Queryable = db): Promise<Company | undefined> {
      const { rows } = await tx.query<CompanyRow>('select id, name, created_at from companies where id = $1', [id]);
      return rows[0] ? toCompany(rows[0]) : undefined;
    },

    async insertAffiliate(affiliate: Affiliate, tx: Queryable = db): Promise<boolean> {
      const { rowCount } = await tx.query(
        `insert into affiliates (user_id, company_id, user_type) values ($1, $2, $3)
         on conflict (user_id) do nothing`,
        [affiliate.userId, affiliate.companyId, affiliate.userType],
      );
      return rowCount === 1;
    },

    async findAffiliate(userId: string, tx: Queryable = db): Promise<Affiliate | undefined> {
      const { rows } = await tx.query<AffiliateRow>(
        'select user_id, company_id, user_type from affiliates where user_id = $1',
        [userId],
      );
      return rows[0] ? toAffiliate(rows[0]) : undefined;
    },

    async listAffiliates(companyId: string, tx: Queryable = db): Promise<Affiliate[]> {
      const { rows } = await tx.query<AffiliateRow>(
        'select user_id, company_id, user_type from affiliates where company_id = $1 order by created_at, user_id',
        [companyId],
      );
      return rows.map(toAffiliate);
    },

    /** A company's credentials without their secret hashes, oldest first. */
    async listCredentials(companyId: string, tx: Queryable = db): Promise<CredentialSummary[]> {
      const { rows } = await tx.query<{ consumer_key: string; created_at: Date; revoked_at: Date | null }>(
        `select consumer_key, created_at, revoked_at from credentials
          where company_id = $1 order by created_at, consumer_key`,
        [companyId],
      );
      return rows.map((r) => ({ consumerKey: r.consumer_key, createdAt: r.created_at, revokedAt: r.revoked_at }));
    },

    async insertCredential(credential: Omit<Credential, 'revokedAt'>, tx: Queryable = db): Promise<void> {
      await tx.query('insert into credentials (consumer_key, company_id, secret_hash) values ($1, $2, $3)', [
        credential.consumerKey,
        credential.companyId,
        credential.secretHash,
      ]);
    },

    async findCredential(consumerKey: string, tx: Queryable = db): Promise<Credential | undefined> {
      const { rows } = await tx.query<CredentialRow>(
        'select consumer_key, company_id, secret_hash, revoked_at from credentials where consumer_key = $1',
        [consumerKey],
      );
      const r = rows[0];
      return r
        ? { consumerKey: r.consumer_key, companyId: r.company_id, secretHash: r.secret_hash, revokedAt: r.revoked_at }
        : undefined;
    },

    /** Returns false when the key does not exist. Revoking twice is harmless. */
    async revokeCredential(consumerKey: string, at: Date, tx: Queryable = db): Promise<boolean> {
      const { rowCount } = await tx.query(
        'update credentials set revoked_at = coalesce(revoked_at, $2) where consumer_key = $1',
        [consumerKey, at],
      );
      return rowCount === 1;
    },

    async getState(key: string, tx: Queryable = db): Promise<string | undefined> {
      const { rows } = await tx.query<{ value: string }>('select value from app_state where key = $1', [key]);
      return rows[0]?.value;
    },

    /** Sets a state key only if absent; true when this call set it. */
    async claimState(key: string, value: string, tx: Queryable = db): Promise<boolean> {
      const { rowCount } = await tx.query(
        'insert into app_state (key, value) values ($1, $2) on conflict (key) do nothing',
        [key, value],
      );
      return rowCount === 1;
    },
  };
}

export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
