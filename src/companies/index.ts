/** What other modules use of the companies module. */
export { type CompaniesService, type CredentialSecret, sandboxAffiliateId } from './companies.service.ts';
export { createCompaniesModule, type CompanyLookups } from './companies.module.ts';
