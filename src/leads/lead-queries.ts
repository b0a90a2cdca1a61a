/** The read side of leads: one lead, the company's list (cursor pages), and a lead's history. */
import { errors } from '../http/app-error.ts';
import type { LeadsRepository } from './leads.repository.ts';
import type { LeadSealer } from './lead-record.ts';
import type { LeadStatus } from './lead-status.ts';
import { leadSummaryView, leadView } from './lead-view.ts';

export interface ListQuery {
  status?: LeadStatus;
  createdFrom?: string;
  createdTo?: string;
  limit?: number;
  cursor?: string;
}

export const encodeCursor = (createdAt: Date, id: string) => Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw errors.invalidInput([{ field: 'cursor', errorDetail: 'is not a cursor of this list' }]);
  }
  return { createdAt, id };
}

const isoDateOrDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function parseDate(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  // new Date() takes almost anything ("1" is 2001): only ISO 8601 dates and date-times count.
  if (!isoDateOrDateTime.test(value) || Number.isNaN(date.getTime())) throw errors.invalidInput([{ field, errorDetail: 'must be an ISO date or date-time' }]);
  return date;
}

export function createLeadQueries(deps: { leads: LeadsRepository; sealer: LeadSealer }) {
  return {
    async getLead(companyId: string, leadId: string) {
      const row = await deps.leads.find(leadId, companyId);
      if (!row) throw errors.leadNotFound();
      return leadView(deps.sealer.toLead(row));
    },

    async listLeads(companyId: string, query: ListQuery) {
      const limit = query.limit ?? 20;
      const rows = await deps.leads.list(companyId, {
        status: query.status,
        excludeEmpty: query.status === undefined,
        createdFrom: parseDate(query.createdFrom, 'createdFrom'),
        createdTo: parseDate(query.createdTo, 'createdTo'),
        after: query.cursor ? decodeCursor(query.cursor) : undefined,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map(leadSummaryView),
        nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
      };
    },

    async listEvents(companyId: string, leadId: string) {
      if (!(await deps.leads.find(leadId, companyId))) throw errors.leadNotFound();
      const events = await deps.leads.events(leadId);
      return {
        items: events.map((e) => ({ id: e.id, type: e.type, at: e.at.toISOString(), actor: e.actor, fields: e.fields })),
      };
    },
  };
}

export type LeadQueries = ReturnType<typeof createLeadQueries>;
