/** The admin API (docs/operations.md, "Partners: the admin API"): companies, their credentials and affiliates. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  errors,
  empty,
  errorAnswers,
  errorCase,
  ok,
  type ErrorCase,
  registerAdminGuard,
  policy,
  type OperatorResolver,
} from '../http/index.ts';
import type { CompaniesService } from '../companies/index.ts';
import * as s from './admin.schemas.ts';
import { uuidPattern } from '../shared/index.ts';
import { operation } from '../http/index.ts';
import { adminOperations as docs } from './admin.operations.ts';

const invalid = (field: string, errorDetail: string) =>
  errorCase('Invalid input', errors.invalidInput([{ field, errorDetail }]));
const noCompany = errorCase('No such company', errors.companyNotFound());
const badCompanyId = invalid('companyId', 'must match pattern "^[0-9a-fA-F]{8}-…$"');
const fails = (body: boolean, bad?: ErrorCase, notFound?: ErrorCase) =>
  errorAnswers({
    access: 'admin',
    body,
    cases: { ...(bad ? { 400: [bad] } : {}), ...(notFound ? { 404: [notFound] } : {}) },
  });

const tags = ['admin'];
const security = [{ adminToken: [] }];
type App = Parameters<FastifyPluginAsyncTypebox>[0];

export const adminRoutes =
  (deps: {
    companies: CompaniesService;
    adminToken: string;
    operators?: OperatorResolver;
  }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    companyRoutes(app, deps.companies);
    credentialAndAffiliateRoutes(app, deps.companies);
  };

/** Create, list and show companies. */
function companyRoutes(app: App, companies: CompaniesService): void {
  app.post(
    '/admin/companies',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'createCompany'),
        body: s.CompanyCreate,
        response: {
          201: ok('admin', s.Company, 'The new company.'),
          ...fails(true, invalid('name', 'must be at least 1 characters')),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await companies.createCompany(request.body.name)),
  );

  app.get(
    '/admin/companies',
    {
      // Analysts read leads of every company, so they may see the companies too.
      config: policy({ roles: ['analyst', 'officer'] }),
      schema: {
        tags,
        security,
        ...operation(docs, 'listCompanies'),
        response: { 200: ok('admin', s.CompanyList, 'Every company.'), ...fails(false) },
      },
    },
    async () => companies.listCompanies(),
  );

  app.get(
    '/admin/companies/:companyId',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'showCompany'),
        params: s.CompanyIdParams,
        response: { 200: ok('admin', s.Company, 'The company.'), ...fails(false, badCompanyId, noCompany) },
      },
    },
    async (request) => companies.showCompany(request.params.companyId),
  );
}

/** A company's credentials and affiliates. */
function credentialAndAffiliateRoutes(app: App, companies: CompaniesService): void {
  app.get(
    '/admin/companies/:companyId/credentials',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'listCredentials'),
        params: s.CompanyIdParams,
        response: {
          200: ok('admin', s.CredentialList, "The company's credentials, oldest first."),
          ...fails(false, badCompanyId, noCompany),
        },
      },
    },
    async (request) => companies.listCredentials(request.params.companyId),
  );

  app.get(
    '/admin/companies/:companyId/affiliates',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'listAffiliates'),
        params: s.CompanyIdParams,
        response: {
          200: ok('admin', s.AffiliateList, "The company's affiliates, oldest first."),
          ...fails(false, badCompanyId, noCompany),
        },
      },
    },
    async (request) => companies.listAffiliates(request.params.companyId),
  );

  app.post(
    '/admin/companies/:companyId/credentials',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'createCredential'),
        params: s.CompanyIdParams,
        response: {
          201: ok('admin', s.CredentialSecret, 'The new credential, with its secret.'),
          ...fails(true, invalid('companyId', `must match the pattern ${uuidPattern}`), noCompany),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await companies.createCredential(request.params.companyId)),
  );

  app.delete(
    '/admin/credentials/:consumer_key',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'revokeCredential'),
        params: s.ConsumerKeyParams,
        response: {
          204: empty('admin', 'Revoked.'),
          ...fails(
            true,
            invalid('consumer_key', 'must be at most 128 characters'),
            errorCase('No such credential', errors.credentialNotFound()),
          ),
        },
      },
    },
    async (request, reply) => {
      await companies.revokeCredential(request.params.consumer_key);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/companies/:companyId/affiliates',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'createAffiliate'),
        params: s.CompanyIdParams,
        body: s.AffiliateCreate,
        response: {
          201: ok('admin', s.Affiliate, 'The new affiliate.'),
          ...fails(true, invalid('user_type', 'is required'), noCompany),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await companies.createAffiliate(request.params.companyId, request.body)),
  );
}
