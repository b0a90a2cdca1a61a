/**
 * Companies (the list, for analysts too) and, for admins, one company's credentials and affiliates:
 * a new credential's secret is shown once on the answer to its POST; a revocation is confirmed on a
 * page of its own first. A refused form (a blank company name, an affiliate's type or identifier)
 * answers the same page (400), the Spanish message beside its field and the values kept.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError, errors, type FieldError } from '../http/index.ts';
import type { CompaniesService } from '../companies/index.ts';
import { uuidPattern } from '../shared/index.ts';
import { everyone, noticeOf, pageContext, seeOther, sendPage } from './console-request.ts';
import { fieldMessage } from './console-messages.ts';
import { AFFILIATE_TYPES, isAffiliateType } from './companies-affiliate-types.ts';
import { companiesPage, companyPage, revokeCredentialPage, type CompanyFormState } from './companies.views.ts';
import type { Notice } from './layout.ts';

export interface CompaniesPagesDeps {
  companies: CompaniesService;
}

const CompanyParams = Type.Object({ companyId: Type.String({ pattern: uuidPattern }) });
const CredentialParams = Type.Object({
  companyId: Type.String({ pattern: uuidPattern }),
  consumerKey: Type.String({ pattern: '^ck_[A-Za-z0-9_-]{1,64}$' }),
});
// Lengths beyond the forms' are taken here and refused beside their field (the schema's refusal is a bare page).
const NewCompany = Type.Object({ _csrf: Type.String(), name: Type.String({ maxLength: 2000 }) });
const NewAffiliate = Type.Object({
  _csrf: Type.String(),
  user_type: Type.String({ maxLength: 2000 }),
  user_id: Type.Optional(Type.String({ maxLength: 2000 })),
});
const Csrf = Type.Object({ _csrf: Type.String() });

/** The affiliate form's own checks: a type of the list, an identifier that is a UUID. */
function affiliateProblems(userType: string, userId: string | undefined): FieldError[] {
  const problems: FieldError[] = [];
  if (!isAffiliateType(userType))
    problems.push({ field: 'user_type', errorDetail: `must be one of: ${AFFILIATE_TYPES.join(', ')}` });
  if (userId !== undefined && !new RegExp(uuidPattern).test(userId))
    problems.push({ field: 'user_id', errorDetail: 'must be a UUID' });
  return problems;
}

/** Each refused field's message in Spanish, beside its form field. */
function affiliateMessages(problems: readonly FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const problem of problems) {
    const field = problem.field === 'user_type' ? 'user_type' : 'user_id';
    out[field] = out[field] ? `${out[field]} ${fieldMessage(problem)}` : fieldMessage(problem);
  }
  return out;
}

const fieldErrorsOf = (error: AppError): FieldError[] =>
  (error.additionalData as { errors?: FieldError[] } | null)?.errors ?? [];

/** One company's page: its credentials and affiliates, a new secret or a notice. */
async function showCompany(
  companies: CompaniesService,
  request: FastifyRequest,
  reply: FastifyReply,
  companyId: string,
  extra: {
    secret?: { consumer_key: string; consumer_secret: string };
    notice?: Notice;
    status?: number;
    affiliateForm?: CompanyFormState;
  } = {},
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
      affiliateForm: extra.affiliateForm,
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
        const problem = name === '' ? 'must not be blank' : name.length > 200 ? 'must be at most 200 characters' : '';
        if (problem) {
          const list = await companies.listCompanies();
          const form = {
            values: request.body,
            errors: { name: fieldMessage({ field: 'name', errorDetail: problem }) },
          };
          return sendPage(reply, companiesPage(pageContext(request, reply), list.items, undefined, form), 400);
        }
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
        const userType = request.body.user_type;
        try {
          const problems = affiliateProblems(userType, userId);
          if (problems.length > 0) throw errors.invalidInput(problems);
          await companies.createAffiliate(companyId, { user_id: userId, user_type: userType });
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
          const affiliateForm = { values: request.body, errors: affiliateMessages(fieldErrorsOf(error)) };
          return showCompany(companies, request, reply, companyId, { affiliateForm, status: 400 });
        }
        return seeOther(reply, `/console/companies/${companyId}?notice=affiliate-added`);
      },
    );
  };
