/** Lead creation and the section writes, plus read, list and history. Handlers stay thin. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  errors,
  empty,
  errorAnswers,
  errorCase,
  ok,
  type ErrorCase,
  sendEmpty,
  policy,
  operation,
} from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import type { CatalogLookup } from '../catalogs/index.ts';
import { type Clock, uuidPattern } from '../shared/index.ts';
import type { LeadsService } from './leads.service.ts';
import { addressErrors, financialErrors, personErrors, vehicleErrors } from './lead-sections.ts';
import { listQueryErrors, type LeadQueries } from './lead-queries.ts';
import * as s from './leads.schemas.ts';
import * as r from './lead-read.schemas.ts';
import { leadsOperations as docs } from './leads.operations.ts';

const tags = ['leads'];
const security = [{ bearerAuth: [] }];
const empty200 = empty('partner', 'Saved. The answer has no body.');
const noContent = empty('partner', 'Saved. No content.');
const invalid = (field: string, errorDetail: string, code: 'default' | 'contact' = 'default'): ErrorCase =>
  errorCase(
    'Invalid input: every failing field is listed',
    (code === 'contact' ? errors.invalidContact : errors.invalidInput)([{ field, errorDetail }]),
  );
const badLeadId = invalid('leadId', `must match the pattern ${uuidPattern}`);
const noSuchLead = errorCase('No such lead, or another company’s', errors.leadNotFound());
const verified = errorCase('The lead is verified: its sections can no longer change', errors.leadVerified());
/** The error answers of a lead route that reads (`body: false`) or saves (`body: true`) a section. */
const leadFails = (body: boolean, bad: ErrorCase = badLeadId) =>
  errorAnswers({
    access: 'partner',
    body,
    cases: { 400: [bad], 404: [noSuchLead], ...(body ? { 409: [verified] } : {}) },
  });
const saveFails = (bad: ErrorCase) => leadFails(true, bad);
const actorOf = (auth: { companyId: string; consumerKey: string }) => ({
  companyId: auth.companyId,
  consumerKey: auth.consumerKey,
});

interface LeadsRouteDeps {
  leads: LeadsService;
  queries: LeadQueries;
  prefix: string;
  /** What the sections' checks against data read: the catalogs in memory, today's date. */
  catalogs: CatalogLookup;
  clock: Clock;
}

type App = Parameters<FastifyPluginAsyncTypebox>[0];

export const leadsRoutes =
  (deps: LeadsRouteDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    creationAndReads(app, deps);
    loanAndContactWrites(app, deps);
    addressToPersonWrites(app, deps);
  };

/** Create a lead; list, read and the history of leads. */
function creationAndReads(app: App, deps: LeadsRouteDeps) {
  app.post(
    '/leads',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'createLead'),
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' })),
        }),
        body: s.LeadCreateRequest,
        'x-body-optional': true,
        response: {
          201: ok(
            'partner',
            r.LeadCreated,
            'Created: the new lead’s id; `Location` is its path.',
            ['Location'],
            ['Idempotent-Replayed'],
          ),
          ...errorAnswers({
            access: 'partner',
            body: true,
            cases: {
              400: [invalid('autoFinB2BLeadCreatePayload.phone', `must match the pattern ${s.phonePattern}`)],
              404: [errorCase('The affiliate is not one of the token’s company', errors.companyNotFound())],
              409: [errorCase('The Idempotency-Key was used with another body', errors.idempotencyConflict())],
            },
          }),
        },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const created = await deps.leads.createLead(actorOf(auth), request.body, request.headers['idempotency-key']);
      if (created.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).header('location', `${deps.prefix}/leads/${created.id}`).send({ id: created.id });
    },
  );

  app.get(
    '/leads',
    {
      config: policy({ queryChecks: listQueryErrors }),
      schema: {
        tags,
        security,
        ...operation(docs, 'listLeads'),
        querystring: r.LeadListQuery,
        response: {
          200: ok('partner', r.LeadList, 'One page of leads, newest first.', ['Cache-Control']),
          ...errorAnswers({ access: 'partner', cases: { 400: [invalid('cursor', 'is not a cursor of this list')] } }),
        },
      },
    },
    async (request) => deps.queries.listLeads(requireAuth(request).companyId, request.query),
  );

  app.get(
    '/leads/:leadId',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'getLead'),
        params: s.LeadIdParams,
        response: { 200: ok('partner', r.Lead, 'The lead.', ['Cache-Control']), ...leadFails(false) },
      },
    },
    async (request) => deps.queries.getLead(requireAuth(request).companyId, request.params.leadId),
  );

  app.get(
    '/leads/:leadId/events',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'listLeadEvents'),
        params: s.LeadIdParams,
        response: {
          200: ok('partner', r.LeadEvents, 'The lead’s changes, oldest first.', ['Cache-Control']),
          ...leadFails(false),
        },
      },
    },
    async (request) => deps.queries.listEvents(requireAuth(request).companyId, request.params.leadId),
  );
}

/** The loan info and contact section writes. */
function loanAndContactWrites(app: App, deps: LeadsRouteDeps) {
  app.put(
    '/leads/:leadId/loan-info',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'saveLoanInfo'),
        params: s.LeadIdParams,
        body: s.LoanInfoPayload,
        response: { 204: noContent, ...saveFails(invalid('term', 'must be <= 360')) },
      },
    },
    async (request, reply) => {
      await deps.leads.saveLoanInfo(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 204);
    },
  );

  app.put(
    '/leads/:leadId/contact-info',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'saveContactInfo'),
        params: s.LeadIdParams,
        body: s.PublicContactInfoPayload,
        response: { 204: noContent, ...saveFails(invalid('email', 'must match format "email"')) },
      },
    },
    async (request, reply) => {
      await deps.leads.saveContactInfo(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 204);
    },
  );

  app.put(
    '/leads/:leadId/contact',
    {
      config: policy({ invalidInput: 'contact' }),
      schema: {
        tags,
        security,
        ...operation(docs, 'updateContact'),
        params: s.LeadIdParams,
        body: s.ContactPayload,
        response: { 204: noContent, ...saveFails(invalid('email', 'must match format "email"', 'contact')) },
      },
    },
    async (request, reply) => {
      await deps.leads.updateContact(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 204);
    },
  );
}

/** The address, vehicle, financial and person section writes. */
function addressToPersonWrites(app: App, deps: LeadsRouteDeps) {
  app.put(
    '/leads/:leadId/address',
    {
      config: policy({ bodyChecks: (body) => addressErrors(body, deps.catalogs) }),
      schema: {
        tags,
        security,
        ...operation(docs, 'saveAddress'),
        params: s.LeadIdParams,
        body: s.AddressPayload,
        response: { 200: empty200, ...saveFails(invalid('zipCode', 'is not a ZIP code of the SEPOMEX catalog')) },
      },
    },
    async (request, reply) => {
      await deps.leads.saveAddress(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 200);
    },
  );

  app.put(
    '/leads/:leadId/auto',
    {
      config: policy({ bodyChecks: (body) => vehicleErrors(body, deps.catalogs) }),
      schema: {
        tags,
        security,
        ...operation(docs, 'saveVehicle'),
        params: s.LeadIdParams,
        body: s.AutoLeadPayload,
        response: { 204: noContent, ...saveFails(invalid('id', 'is not a version of the vehicle catalog')) },
      },
    },
    async (request, reply) => {
      await deps.leads.saveVehicle(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 204);
    },
  );

  app.put(
    '/leads/:leadId/financial',
    {
      config: policy({ bodyChecks: (body) => financialErrors(body, deps.clock.now()) }),
      schema: {
        tags,
        security,
        ...operation(docs, 'saveFinancial'),
        params: s.LeadIdParams,
        body: s.FinancialPayload,
        response: { 200: empty200, ...saveFails(invalid('startDate.month', 'must be <= 12')) },
      },
    },
    async (request, reply) => {
      await deps.leads.saveFinancial(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 200);
    },
  );

  app.post(
    '/leads/:leadId/person',
    {
      config: policy({ bodyChecks: (body) => personErrors(body, deps.clock.now()) }),
      schema: {
        tags,
        security,
        ...operation(docs, 'savePerson'),
        params: s.LeadIdParams,
        body: s.PersonPayload,
        response: {
          200: empty200,
          ...saveFails(invalid('rfc', 'the date in the RFC (900215) must equal birthDate')),
        },
      },
    },
    async (request, reply) => {
      await deps.leads.savePerson(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 200);
    },
  );
}
