/** What other modules use of the companies module. */
export { type CompaniesRepository, createCompaniesRepository } from './companies.repository.ts';
export {
  type CompaniesService,
  createCompaniesService,
  type CredentialSecret,
  sandboxAffiliateId,
} from './companies.service.ts';
