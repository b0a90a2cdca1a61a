/** Lead creation and the section writes, plus read, list and history. Handlers stay thin. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { empty, errorAnswers, ok, sendEmpty, policy, operation } from '../http/index.ts';
import { requireAuth } from '../auth/index.ts';
import type { CatalogLookup } from '../catalogs/index.ts';
import type { Clock } from '../shared/index.ts';
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
type LeadOperation = keyof typeof docs;
/** The error answers of operation `id`: a route with a body (`body: true`) or without. */
const fails = (id: LeadOperation, body: boolean) =>
  errorAnswers({ access: 'partner', body, cases: docs[id].errorCases });
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
          ...fails('createLead', true),
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
          ...fails('listLeads', false),
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
        response: { 200: ok('partner', r.Lead, 'The lead.', ['Cache-Control']), ...fails('getLead', false) },
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
          ...fails('listLeadEvents', false),
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
        response: { 204: noContent, ...fails('saveLoanInfo', true) },
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
        response: { 204: noContent, ...fails('saveContactInfo', true) },
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
        response: { 204: noContent, ...fails('updateContact', true) },
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
        response: { 200: empty200, ...fails('saveAddress', true) },
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
        response: { 204: noContent, ...fails('saveVehicle', true) },
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
        response: { 200: empty200, ...fails('saveFinancial', true) },
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
          ...fails('savePerson', true),
        },
      },
    },
    async (request, reply) => {
      await deps.leads.savePerson(actorOf(requireAuth(request)), request.params.leadId, request.body);
      return sendEmpty(reply, 200);
    },
  );
}
