/**
 * Companies (the list, for analysts too) and, for admins, one company's credentials and affiliates:
 * a new credential's secret is shown once on the answer to its POST; a revocation is confirmed on a
 * page of its own first.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errors } from '../http/index.ts';
import type { CompaniesService } from '../companies/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { everyone, noticeOf, pageContext, refusal, seeOther, sendPage } from './console-request.ts';
import { companiesPage, companyPage, revokeCredentialPage } from './companies.views.ts';
import type { Notice } from './layout.ts';

export interface CompaniesPagesDeps {
  companies: CompaniesService;
}

const CompanyParams = Type.Object({ companyId: Type.String({ pattern: uuidPattern }) });
const CredentialParams = Type.Object({
  companyId: Type.String({ pattern: uuidPattern }),
  consumerKey: Type.String({ pattern: '^ck_[A-Za-z0-9_-]{1,64}$' }),
});
const NewCompany = Type.Object({ _csrf: Type.String(), name: Type.String({ minLength: 1, maxLength: 200 }) });
const NewAffiliate = Type.Object({
  _csrf: Type.String(),
  user_type: Type.String({ minLength: 1, maxLength: 50 }),
  user_id: Type.Optional(Type.String({ maxLength: 36 })),
});
const Csrf = Type.Object({ _csrf: Type.String() });

/** One company's page: its credentials and affiliates, a new secret or a notice. */
async function showCompany(
  companies: CompaniesService,
  request: FastifyRequest,
  reply: FastifyReply,
  companyId: string,
  extra: { secret?: { consumer_key: string; consumer_secret: string }; notice?: Notice; status?: number } = {},
) {
  const [company, credentials, affiliates] = await Promise.all([
    companies.showCompany(companyId),
    companies.listCredentials(companyId),
    companies.listAffiliates(companyId),
  ]);
  return sendPage(
    reply,
    companyPage(pageContext(request, reply), {
      company,
      credentials: credentials.items,
      affiliates: affiliates.items,
      secret: extra.secret,
      notice: extra.notice ?? noticeOf(request),
    }),
    extra.status,
  );
}

export const companiesRoutes =
  (deps: CompaniesPagesDeps): FastifyPluginAsync =>
  async (app) => {
    const { companies } = deps;

    app.get('/companies', { config: everyone, schema: { hide: true } }, async (request, reply) => {
      const list = await companies.listCompanies();
      return sendPage(reply, companiesPage(pageContext(request, reply), list.items, noticeOf(request)));
    });

    app.post<{ Body: Static<typeof NewCompany> }>(
      '/companies',
      { schema: { hide: true, body: NewCompany } },
      async (request, reply) => {
        const name = request.body.name.trim();
        if (!name) throw errors.invalidInput([{ field: 'name', errorDetail: 'must not be blank' }]);
        const company = await companies.createCompany(name);
        return seeOther(reply, `/console/companies/${company.id}?notice=company-created`);
      },
    );

    app.get<{ Params: Static<typeof CompanyParams> }>(
      '/companies/:companyId',
      { schema: { hide: true, params: CompanyParams } },
      async (request, reply) => showCompany(companies, request, reply, request.params.companyId.toLowerCase()),
    );

    app.post<{ Params: Static<typeof CompanyParams>; Body: Static<typeof Csrf> }>(
      '/companies/:companyId/credentials',
      { schema: { hide: true, params: CompanyParams, body: Csrf } },
      async (request, reply) => {
        const companyId = request.params.companyId.toLowerCase();
        const secret = await companies.createCredential(companyId);
        return showCompany(companies, request, reply, companyId, { secret });
      },
    );

    app.get<{ Params: Static<typeof CredentialParams> }>(
      '/companies/:companyId/credentials/:consumerKey/revoke',
      { schema: { hide: true, params: CredentialParams } },
      async (request, reply) => {
        const companyId = request.params.companyId.toLowerCase();
        const [company, credentials] = await Promise.all([
          companies.showCompany(companyId),
          companies.listCredentials(companyId),
        ]);
        const credential = credentials.items.find((c) => c.consumer_key === request.params.consumerKey);
        if (!credential || credential.revokedAt) throw errors.credentialNotFound();
        return sendPage(reply, revokeCredentialPage(pageContext(request, reply), company, credential.consumer_key));
      },
    );

    app.post<{ Params: Static<typeof CredentialParams>; Body: Static<typeof Csrf> }>(
      '/companies/:companyId/credentials/:consumerKey/revoke',
      { schema: { hide: true, params: CredentialParams, body: Csrf } },
      async (request, reply) => {
        const companyId = request.params.companyId.toLowerCase();
        const credentials = await companies.listCredentials(companyId);
        // Only a credential of this company, from this company's page.
        const ours = credentials.items.some((c) => c.consumer_key === request.params.consumerKey);
        if (!ours) throw errors.credentialNotFound();
        await companies.revokeCredential(request.params.consumerKey);
        return seeOther(reply, `/console/companies/${companyId}?notice=credential-revoked`);
      },
    );

    app.post<{ Params: Static<typeof CompanyParams>; Body: Static<typeof NewAffiliate> }>(
      '/companies/:companyId/affiliates',
      { schema: { hide: true, params: CompanyParams, body: NewAffiliate } },
      async (request, reply) => {
        const companyId = request.params.companyId.toLowerCase();
        const userId = request.body.user_id?.trim() || undefined;
        try {
          if (userId !== undefined && !new RegExp(uuidPattern).test(userId)) {
            throw errors.invalidInput([{ field: 'user_id', errorDetail: 'must be a UUID' }]);
          }
          await companies.createAffiliate(companyId, { user_id: userId, user_type: request.body.user_type.trim() });
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
          return showCompany(companies, request, reply, companyId, {
            notice: { kind: 'error', text: refusal(error) },
            status: 400,
          });
        }
        return seeOther(reply, `/console/companies/${companyId}?notice=affiliate-added`);
      },
    );
  };
