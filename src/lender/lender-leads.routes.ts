/**
 * The lender's lead routes under /admin (docs/lender-api.md). Analysts may list, read and export;
 * erasure and the retention purge are admin-only.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  documented,
  empty,
  errorAnswers,
  ok,
  registerAdminGuard,
  type OperatorResolver,
  policy,
  operation,
} from '../http/index.ts';
import { auditOriginOf } from '../audit/index.ts';
import { exportContentTypes } from './lead-export.ts';
import type { LenderLeadsService } from './lender-leads.service.ts';
import type { PersonalDataErasure } from './personal-data-erasure.ts';
import type { LegalHolds } from './legal-hold.ts';
import * as s from './lender-leads.schemas.ts';
import { lenderOperations as docs } from './lender-leads.operations.ts';

/** The error answers of lender operation `id`, from its entry in the table. */
const fails = (id: keyof typeof docs) => errorAnswers({ access: 'admin', body: true, cases: docs[id].errorCases });
const readers = policy({ roles: ['analyst', 'officer'] });

interface LenderLeadsRouteDeps {
  leads: LenderLeadsService;
  erasure: PersonalDataErasure;
  holds: LegalHolds;
  adminToken: string;
  operators: OperatorResolver;
}

type App = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['lender'];
const security = [{ adminToken: [] }];

export const lenderLeadsRoutes =
  (deps: LenderLeadsRouteDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    listAndExport(app, deps);
    readAndErasure(app, deps);
  };

/** Every company's leads: the list and the export. */
function listAndExport(app: App, deps: LenderLeadsRouteDeps) {
  app.get(
    '/admin/leads',
    {
      config: readers,
      schema: {
        tags,
        security,
        ...operation(docs, 'listAllLeads'),
        querystring: s.LenderLeadListQuery,
        response: {
          200: ok('admin', s.LenderLeadList, 'A page of lead summaries, newest first.', ['Cache-Control']),
          ...fails('listAllLeads'),
        },
      },
    },
    async (request) => deps.leads.list(request.query),
  );

  app.get(
    '/admin/leads/export',
    {
      config: readers,
      schema: {
        tags,
        security,
        ...operation(docs, 'exportLeads'),
        querystring: s.LeadExportQuery,
        response: {
          200: documented(
            {
              description: 'One line per lead',
              content: {
                'application/x-ndjson': {
                  schema: Type.String({
                    examples: ['{"id":"0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a","status":"PREQUALIFIED"}\n'],
                  }),
                },
                'text/csv': {
                  schema: Type.String({
                    examples: [
                      'id,companyId,status\r\n' +
                        '0b8f0d3e-8c39-4c59-9d0e-3a1f7f1d2b6a,6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b,PREQUALIFIED\r\n',
                    ],
                  }),
                },
              },
            } as never,
            {
              description: 'One line per lead, newest first (NDJSON or CSV).',
              headers: ['X-Request-Id', 'Cache-Control'],
            },
          ),
          ...fails('exportLeads'),
        },
      },
    },
    async (request, reply) => {
      const { format = 'ndjson', ...filter } = request.query;
      const lines = deps.leads.export(auditOriginOf(request), filter, format);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      return (
        reply
          .type(exportContentTypes[format])
          .header('content-disposition', `attachment; filename="leads-${stamp}.${format}"`)
          .header('cache-control', 'no-store')
          // A stream bypasses the serializer; the typed reply only knows the schema's string.
          .send(Readable.from(lines, { objectMode: false }) as unknown as string)
      );
    },
  );
}

/** One lead: its read with personal data, the erasure of that data, and the retention purge. */
function readAndErasure(app: App, deps: LenderLeadsRouteDeps) {
  app.get(
    '/admin/leads/:leadId',
    {
      config: readers,
      schema: {
        tags,
        security,
        ...operation(docs, 'readLeadAsLender'),
        params: s.LenderLeadIdParams,
        response: {
          200: ok('admin', s.LenderLead, 'The lead with its personal data, consent, bureau summary and explanation.', [
            'Cache-Control',
          ]),
          ...fails('readLeadAsLender'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // Warning codes are typed as text in the lead record; the response schema names the closed set.
      return (await deps.leads.read(auditOriginOf(request), request.params.leadId)) as never;
    },
  );

  app.get(
    '/admin/leads/:leadId/personal-data',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'readPersonalData'),
        params: s.LenderLeadIdParams,
        response: {
          200: ok('admin', s.PersonalDataExport, "Everything held about the lead's person.", ['Cache-Control']),
          ...fails('readPersonalData'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return (await deps.leads.personalData(auditOriginOf(request), request.params.leadId)) as never;
    },
  );

  holdRoutes(app, deps);

  app.delete(
    '/admin/leads/:leadId/personal-data',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'erasePersonalData'),
        params: s.LenderLeadIdParams,
        response: { 204: empty('admin', 'Erased.'), ...fails('erasePersonalData') },
      },
    },
    async (request, reply) => {
      await deps.erasure.eraseLead(auditOriginOf(request), request.params.leadId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/leads/purge',
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'purgePersonalData'),
        body: s.PurgeRequest,
        response: {
          200: ok('admin', s.PurgeResult, 'The leads erased (or, dry, that would be).'),
          ...fails('purgePersonalData'),
        },
      },
    },
    async (request) => deps.erasure.purge({ dryRun: request.body.dryRun ?? false, origin: auditOriginOf(request) }),
  );
}

/** The legal hold of a lead: set (or replace), read, release (admins). */
function holdRoutes(app: App, deps: LenderLeadsRouteDeps) {
  const path = '/admin/leads/:leadId/legal-hold';
  app.put(
    path,
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'setLegalHold'),
        params: s.LenderLeadIdParams,
        body: s.LegalHoldRequest,
        response: { 200: ok('admin', s.LegalHold, 'The hold in force.'), ...fails('setLegalHold') },
      },
    },
    async (request) => deps.holds.set(auditOriginOf(request), request.params.leadId, request.body.reason),
  );
  app.get(
    path,
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'readLegalHold'),
        params: s.LenderLeadIdParams,
        response: { 200: ok('admin', s.LegalHold, 'The hold in force.'), ...fails('readLegalHold') },
      },
    },
    async (request) => deps.holds.get(request.params.leadId),
  );
  app.delete(
    path,
    {
      schema: {
        tags,
        security,
        ...operation(docs, 'releaseLegalHold'),
        params: s.LenderLeadIdParams,
        response: { 204: empty('admin', 'Released.'), ...fails('releaseLegalHold') },
      },
    },
    async (request, reply) => {
      await deps.holds.release(auditOriginOf(request), request.params.leadId);
      return reply.code(204).send(null);
    },
  );
}
