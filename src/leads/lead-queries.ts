/** The read side of leads: one lead, the company's list (cursor pages), and a lead's history. */
import { errors, isoInstant, readDateFilter, type FieldError } from '../http/index.ts';
import { uuidPattern } from '../shared/index.ts';
import type { LeadsRepository } from './leads.repository.ts';
import type { LeadSealer } from './lead-record.ts';
import type { LeadStatus } from '../lead-status/index.ts';
import { leadSummaryView, leadView } from './lead-view.ts';
import type { OutcomeStatus, PartnerOutcomeView } from '../outcomes/index.ts';

export interface ListQuery {
  status?: LeadStatus;
  outcome?: OutcomeStatus;
  createdFrom?: string;
  createdTo?: string;
  limit?: number;
  cursor?: string;
}

export const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');

const cursorPattern = new RegExp(
  `^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z)\\|(${uuidPattern.slice(1, -1)})$`,
);

function readCursor(cursor: string, fieldErrors: FieldError[]): { createdAt: Date; id: string } | undefined {
  const match = cursorPattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const createdAt = match ? isoInstant(match[1]) : undefined;
  if (match && createdAt) return { createdAt, id: match[2].toLowerCase() };
  fieldErrors.push({ field: 'cursor', errorDetail: 'is not a cursor of this list' });
  return undefined;
}

/** A cursor of a lead list (this one's or the operators'), or 400 / 40015 on `cursor`. */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const fieldErrors: FieldError[] = [];
  const decoded = readCursor(cursor, fieldErrors);
  if (!decoded) throw errors.invalidInput(fieldErrors);
  return decoded;
}

function filterOf(query: ListQuery, fieldErrors: FieldError[]) {
  return {
    createdFrom: readDateFilter(query.createdFrom, 'createdFrom', fieldErrors),
    createdTo: readDateFilter(query.createdTo, 'createdTo', fieldErrors),
    after: query.cursor ? readCursor(query.cursor, fieldErrors) : undefined,
  };
}

/** The list's filters, every bad one reported in one answer. */
function listFilter(query: ListQuery) {
  const fieldErrors: FieldError[] = [];
  const filter = filterOf(query, fieldErrors);
  if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
  return filter;
}

/** The same checks on a query the schema refused, so one answer lists them with the schema's. */
export function listQueryErrors(query: Record<string, unknown>): FieldError[] {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const fieldErrors: FieldError[] = [];
  filterOf({ createdFrom: text('createdFrom'), createdTo: text('createdTo'), cursor: text('cursor') }, fieldErrors);
  return fieldErrors;
}

export function createLeadQueries(deps: {
  leads: LeadsRepository;
  sealer: LeadSealer;
  /** The lender's decision as the partner sees it (the outcomes module). */
  outcomes: { partnerView(leadId: string): Promise<PartnerOutcomeView | null> };
}) {
  return {
    async getLead(companyId: string, leadId: string) {
      const row = await deps.leads.find(leadId, companyId);
      if (!row) throw errors.leadNotFound();
      await deps.sealer.forReading([row.id]);
      return { ...leadView(deps.sealer.toLead(row)), outcome: await deps.outcomes.partnerView(row.id) };
    },

    async listLeads(companyId: string, query: ListQuery) {
      const limit = query.limit ?? 20;
      const rows = await deps.leads.list(companyId, {
        status: query.status,
        outcome: query.outcome,
        excludeEmpty: query.status === undefined,
        ...listFilter(query),
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
        items: events.map((e) => ({
          id: e.id,
          type: e.type,
          at: e.at.toISOString(),
          actor: e.actor,
          fields: e.fields,
        })),
      };
    },
  };
}

export type LeadQueries = ReturnType<typeof createLeadQueries>;
