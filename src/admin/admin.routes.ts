/** The admin API (docs/operations.md, "Partners: the admin API"): companies, their credentials and affiliates. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../http/error-response.ts';
import { registerAdminGuard } from '../http/admin-guard.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import type { OperatorResolver } from '../http/admin-guard.ts';
import * as s from './admin.schemas.ts';

const errorsOf = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const adminRoutes =
  (deps: { companies: CompaniesService; adminToken: string; operators?: OperatorResolver }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    const tags = ['admin'];
    const security = [{ adminToken: [] }];

    app.post(
      '/admin/companies',
      { schema: { tags, security, operationId: 'createCompany', summary: 'Create a company', body: s.CompanyCreate, response: { 201: s.Company, ...errorsOf } } },
      async (request, reply) => reply.code(201).send(await deps.companies.createCompany(request.body.name)),
    );

    app.get(
      '/admin/companies',
      {
        // Analysts read leads of every company, so they may see the companies too.
        config: { operatorRoles: ['analyst'] },
        schema: { tags, security, operationId: 'listCompanies', summary: 'List companies', response: { 200: s.CompanyList, 401: ErrorResponse, 403: ErrorResponse } },
      },
      async () => deps.companies.listCompanies(),
    );

    app.get(
      '/admin/companies/:companyId',
      {
        schema: {
          tags, security, operationId: 'showCompany', summary: 'Show one company',
          params: s.CompanyIdParams, response: { 200: s.Company, ...errorsOf },
        },
      },
      async (request) => deps.companies.showCompany(request.params.companyId),
    );

    app.get(
      '/admin/companies/:companyId/credentials',
      {
        schema: {
          tags, security, operationId: 'listCredentials', summary: "List a company's credentials (never their secrets)",
          params: s.CompanyIdParams, response: { 200: s.CredentialList, ...errorsOf },
        },
      },
      async (request) => deps.companies.listCredentials(request.params.companyId),
    );

    app.get(
      '/admin/companies/:companyId/affiliates',
      {
        schema: {
          tags, security, operationId: 'listAffiliates', summary: "List a company's affiliates",
          params: s.CompanyIdParams, response: { 200: s.AffiliateList, ...errorsOf },
        },
      },
      async (request) => deps.companies.listAffiliates(request.params.companyId),
    );

    app.post(
      '/admin/companies/:companyId/credentials',
      {
        schema: {
          tags, security, operationId: 'createCredential', summary: 'Create a credential (the secret is shown only here)',
          params: s.CompanyIdParams, response: { 201: s.CredentialSecret, ...errorsOf },
        },
      },
      async (request, reply) => reply.code(201).send(await deps.companies.createCredential(request.params.companyId)),
    );

    app.delete(
      '/admin/credentials/:consumer_key',
      {
        schema: {
          tags, security, operationId: 'revokeCredential', summary: 'Revoke a credential; its tokens answer 401 from then on',
          params: s.ConsumerKeyParams, response: { 204: Type.Null({ description: 'Revoked' }), ...errorsOf },
        },
      },
      async (request, reply) => {
        await deps.companies.revokeCredential(request.params.consumer_key);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/admin/companies/:companyId/affiliates',
      {
        schema: {
          tags, security, operationId: 'createAffiliate', summary: 'Add an affiliate to a company',
          params: s.CompanyIdParams, body: s.AffiliateCreate, response: { 201: s.Affiliate, ...errorsOf },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await deps.companies.createAffiliate(request.params.companyId, request.body)),
    );
  };
