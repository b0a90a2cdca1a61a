/** Companies, affiliates and credentials: what the admin API and the CLI drive. */
import { errors } from '../http/index.ts';
import { hashSecret, type Clock, newId, randomToken } from '../shared/index.ts';
import type { Db } from '../db/index.ts';
import type { CompaniesRepository } from './companies.repository.ts';

interface Deps {
  db: Pick<Db, 'transaction'>;
  repository: CompaniesRepository;
  clock: Clock;
  /** Called after a revocation so every instance forgets the credential's cached status. */
  onCredentialRevoked: (consumerKey: string) => void | Promise<void>;
}

export interface CredentialSecret {
  consumer_key: string;
  consumer_secret: string;
}

/**
 * The sandbox demo company's affiliate always has this id, so the create-lead example of the API's
 * documentation works against a fresh sandbox as it is.
 */
export const sandboxAffiliateId = '3f0c2a4e-9a53-4f4b-8d1e-0b6f6a2c9d10';

export const companyView = (c: { id: string; name: string; createdAt: Date }) => ({
  id: c.id,
  name: c.name,
  createdAt: c.createdAt.toISOString(),
});

export function createCompaniesService(deps: Deps) {
  const { repository } = deps;

  async function requireCompany(companyId: string) {
    const company = await repository.findCompany(companyId);
    if (!company) throw errors.companyNotFound();
    return company;
  }

  async function createCredential(companyId: string): Promise<CredentialSecret> {
    await requireCompany(companyId);
    const secret = { consumer_key: `ck_${randomToken(18)}`, consumer_secret: `cs_${randomToken(32)}` };
    await repository.insertCredential({
      consumerKey: secret.consumer_key,
      companyId,
      secretHash: hashSecret(secret.consumer_secret),
    });
    return secret;
  }

  async function createAffiliate(companyId: string, input: { user_id?: string; user_type: string }) {
    await requireCompany(companyId);
    const userId = (input.user_id ?? newId()).toLowerCase();
    const inserted = await repository.insertAffiliate({ userId, companyId, userType: input.user_type });
    if (!inserted)
      throw errors.invalidInput([
        { field: 'user_id', errorDetail: 'must be unique: this user is already an affiliate' },
      ]);
    return { user_id: userId, user_type: input.user_type, companyId };
  }

  return {
    createCompany: async (name: string) => companyView(await repository.insertCompany({ id: newId(), name })),
    listCompanies: async () => ({ items: (await repository.listCompanies()).map(companyView) }),
    showCompany: async (companyId: string) => companyView(await requireCompany(companyId)),
    async listCredentials(companyId: string) {
      await requireCompany(companyId);
      const items = await repository.listCredentials(companyId);
      return {
        items: items.map((c) => ({
          consumer_key: c.consumerKey,
          createdAt: c.createdAt.toISOString(),
          revokedAt: c.revokedAt?.toISOString() ?? null,
        })),
      };
    },
    async listAffiliates(companyId: string) {
      await requireCompany(companyId);
      const items = await repository.listAffiliates(companyId);
      return { items: items.map((a) => ({ user_id: a.userId, user_type: a.userType, companyId: a.companyId })) };
    },
    createCredential,
    createAffiliate,

    async revokeCredential(consumerKey: string): Promise<void> {
      const found = await repository.revokeCredential(consumerKey, deps.clock.now());
      if (!found) throw errors.credentialNotFound();
      await deps.onCredentialRevoked(consumerKey);
    },

    /**
     * In sandbox, a fresh database gets a demo company with one affiliate and one credential; the
     * secret is returned only the first time, for the caller to print once.
     */
    async seedSandbox(): Promise<
      | {
          company: { id: string; name: string };
          affiliate: { user_id: string; user_type: string };
          credential: CredentialSecret;
        }
      | undefined
    > {
      return deps.db.transaction(async (tx) => {
        if (!(await repository.claimState('sandbox_seeded', deps.clock.now().toISOString(), tx))) return undefined;
        const company = await repository.insertCompany({ id: newId(), name: 'Demo Dealer (sandbox)' }, tx);
        const affiliate = { userId: sandboxAffiliateId, companyId: company.id, userType: 'SELLER' };
        await repository.insertAffiliate(affiliate, tx);
        const credential = { consumer_key: `ck_${randomToken(18)}`, consumer_secret: `cs_${randomToken(32)}` };
        await repository.insertCredential(
          {
            consumerKey: credential.consumer_key,
            companyId: company.id,
            secretHash: hashSecret(credential.consumer_secret),
          },
          tx,
        );
        return {
          company: { id: company.id, name: company.name },
          affiliate: { user_id: affiliate.userId, user_type: affiliate.userType },
          credential,
        };
      });
    },
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
