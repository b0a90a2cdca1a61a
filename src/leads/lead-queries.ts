/** The read side of leads: one lead, the company's list (cursor pages), and a lead's history. */
import { errors, type FieldError } from '../http/index.ts';
import { uuidPattern } from '../shared/index.ts';
import type { LeadsRepository } from './leads.repository.ts';
import type { LeadSealer } from './lead-record.ts';
import type { LeadStatus } from './lead-status.ts';
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

// Years 1–9999 only: both engines store them, and JavaScript's extended years (`+275760-…`) or
// year 0 would fail in the database instead of answering a 400.
const isoDateOrDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const cursorPattern = new RegExp(
  `^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z)\\|(${uuidPattern.slice(1, -1)})$`,
);

/** An instant from an ISO 8601 date or date-time of years 1–9999; undefined otherwise. */
function isoInstant(value: string): Date | undefined {
  if (!isoDateOrDateTime.test(value) || value.startsWith('0000')) return undefined;
  const date = new Date(value);
  const year = date.getUTCFullYear();
  // new Date() takes almost anything ("1" is 2001) and rolls impossible days over: the pattern and
  // the range decide, and a date that moved out of years 1–9999 with its offset is refused too.
  return Number.isNaN(date.getTime()) || year < 1 || year > 9999 ? undefined : date;
}

function readCursor(cursor: string, fieldErrors: FieldError[]): { createdAt: Date; id: string } | undefined {
  const match = cursorPattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const createdAt = match ? isoInstant(match[1]) : undefined;
  if (match && createdAt) return { createdAt, id: match[2].toLowerCase() };
  fieldErrors.push({ field: 'cursor', errorDetail: 'is not a cursor of this list' });
  return undefined;
}

function readDate(value: string | undefined, field: string, fieldErrors: FieldError[]): Date | undefined {
  if (value === undefined) return undefined;
  const date = isoInstant(value);
  if (!date) fieldErrors.push({ field, errorDetail: 'must be an ISO 8601 date or date-time of the years 0001–9999' });
  return date;
}

/** A cursor of a lead list (this one's or the operators'), or 400 / 40015 on `cursor`. */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const fieldErrors: FieldError[] = [];
  const decoded = readCursor(cursor, fieldErrors);
  if (!decoded) throw errors.invalidInput(fieldErrors);
  return decoded;
}

/** An ISO 8601 date or date-time of the years 0001–9999, or 400 / 40015 on `field`. */
export function parseDate(value: string | undefined, field: string): Date | undefined {
  const fieldErrors: FieldError[] = [];
  const date = readDate(value, field, fieldErrors);
  if (fieldErrors.length > 0) throw errors.invalidInput(fieldErrors);
  return date;
}

function filterOf(query: ListQuery, fieldErrors: FieldError[]) {
  return {
    createdFrom: readDate(query.createdFrom, 'createdFrom', fieldErrors),
    createdTo: readDate(query.createdTo, 'createdTo', fieldErrors),
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
