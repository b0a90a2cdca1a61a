/** Lead creation and the section writes, plus read, list and history. Handlers stay thin. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from 'typebox';
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
    sectionWrites(app, deps);
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

/**
 * A section write (docs/api.md, "Sections"): its route and operation, its body, the status of its empty
 * answer (the spec's 200 or 204), its checks against data (`config`) and the service call that saves it.
 */
interface SectionWrite<B extends TSchema> {
  method: 'PUT' | 'POST';
  url: string;
  operation: LeadOperation;
  body: B;
  status: 200 | 204;
  config?: ReturnType<typeof policy>;
  save: (actor: ReturnType<typeof actorOf>, leadId: string, body: Static<B>) => Promise<unknown>;
}

function sectionWrite<B extends TSchema>(app: App, write: SectionWrite<B>) {
  const answer = write.status === 200 ? empty200 : noContent;
  app.route({
    method: write.method,
    url: write.url,
    ...(write.config ? { config: write.config } : {}),
    schema: {
      tags,
      security,
      ...operation(docs, write.operation),
      params: s.LeadIdParams,
      body: write.body,
      response: { [write.status]: answer, ...fails(write.operation, true) },
    },
    handler: async (request, reply) => {
      const { leadId } = request.params as { leadId: string };
      await write.save(actorOf(requireAuth(request)), leadId, request.body as Static<B>);
      return sendEmpty(reply, write.status);
    },
  });
}

/** The loan, contact, address, vehicle, financial and person sections, in the spec's order. */
function sectionWrites(app: App, deps: LeadsRouteDeps) {
  const { leads, catalogs, clock } = deps;
  const section = { method: 'PUT', status: 204 } as const;
  sectionWrite(app, {
    ...section,
    url: '/leads/:leadId/loan-info',
    operation: 'saveLoanInfo',
    body: s.LoanInfoPayload,
    save: (actor, id, body) => leads.saveLoanInfo(actor, id, body),
  });
  sectionWrite(app, {
    ...section,
    url: '/leads/:leadId/contact-info',
    operation: 'saveContactInfo',
    body: s.PublicContactInfoPayload,
    save: (actor, id, body) => leads.saveContactInfo(actor, id, body),
  });
  sectionWrite(app, {
    ...section,
    url: '/leads/:leadId/contact',
    operation: 'updateContact',
    body: s.ContactPayload,
    config: policy({ invalidInput: 'contact' }),
    save: (actor, id, body) => leads.updateContact(actor, id, body),
  });
  sectionWrite(app, {
    ...section,
    status: 200,
    url: '/leads/:leadId/address',
    operation: 'saveAddress',
    body: s.AddressPayload,
    config: policy({ bodyChecks: (body) => addressErrors(body, catalogs) }),
    save: (actor, id, body) => leads.saveAddress(actor, id, body),
  });
  sectionWrite(app, {
    ...section,
    url: '/leads/:leadId/auto',
    operation: 'saveVehicle',
    body: s.AutoLeadPayload,
    config: policy({ bodyChecks: (body) => vehicleErrors(body, catalogs) }),
    save: (actor, id, body) => leads.saveVehicle(actor, id, body),
  });
  sectionWrite(app, {
    ...section,
    status: 200,
    url: '/leads/:leadId/financial',
    operation: 'saveFinancial',
    body: s.FinancialPayload,
    config: policy({ bodyChecks: (body) => financialErrors(body, clock.now()) }),
    save: (actor, id, body) => leads.saveFinancial(actor, id, body),
  });
  sectionWrite(app, {
    method: 'POST',
    status: 200,
    url: '/leads/:leadId/person',
    operation: 'savePerson',
    body: s.PersonPayload,
    config: policy({ bodyChecks: (body) => personErrors(body, clock.now()) }),
    save: (actor, id, body) => leads.savePerson(actor, id, body),
  });
}
