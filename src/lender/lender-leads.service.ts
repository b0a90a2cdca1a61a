/**
 * The lender's read of leads (docs/lender-api.md): every company's leads in pages, one lead with its
 * personal data, consent receipt, bureau summary and pre-qualification explanation, and the export.
 * Each read of personal data and each export is audited.
 */
import { setImmediate } from 'node:timers/promises';
import type { Retention } from './retention.ts';
import type { Db } from '../db/index.ts';
import { errors, parseDateFilter } from '../http/index.ts';
import type { LeadStatus } from '../lead-status/index.ts';
import type { Bureau, BureauReport } from '../bureau/index.ts';
import {
  decodeCursor,
  encodeCursor,
  leadSummaryView,
  leadView,
  toPrequalificationInput,
  type Lead,
  type LeadLifecycle,
  type LeadSealer,
  type ErasableRow,
  type LenderLeadFilter,
  type LenderLeadQueries,
} from '../leads/index.ts';
import { ruleInputs, type PrequalificationConfig } from '../prequalification/index.ts';
import type { Consents } from '../consent/index.ts';
import type { AuditOrigin, AuditService } from '../audit/index.ts';
import type { OutcomesService, OutcomeStatus } from '../outcomes/index.ts';
import { bureauSummary } from './bureau-summary.ts';
import { csvHeader, exportLine, exportRecord, type ExportFormat } from './lead-export.ts';

export interface LenderLeadQuery {
  companyId?: string;
  status?: LeadStatus;
  outcome?: OutcomeStatus;
  decision?: string;
  affiliate?: string;
  createdFrom?: string;
  createdTo?: string;
}

interface Deps {
  db: Pick<Db, 'transaction'>;
  /** Every company's leads, read through the leads module. */
  queries: LenderLeadQueries;
  leads: Pick<LeadLifecycle, 'events'>;
  reports: Pick<Bureau, 'reportOf'>;
  consents: Pick<Consents, 'of'>;
  audit: Pick<AuditService, 'record'>;
  sealer: LeadSealer;
  outcomes: Pick<OutcomesService, 'operatorView'>;
  /** The lead's documents' metadata, for the person's access (the documents module's). */
  documents: { list(leadId: string): Promise<object[]> };
  /** How long the lead's personal data is kept (the erasure's rule). */
  retentionOf: (row: ErasableRow) => Promise<Retention>;
  /** The pre-qualification rules in force: what a rule computes from the lead's values is shown with them. */
  rules: PrequalificationConfig;
}

/**
 * Rows per database read of the export. A batch's rows live while it is decrypted and formatted over
 * several turns of the event loop: 100 of them fit V8's young generation as `npm start` sizes it, and die
 * there. At 200 or 500 they outlived it, and the service grew by about 100 MiB during an export (its heap
 * and the allocator's memory, never handed back), with saves beside it twice as slow.
 */
const exportBatchSize = 100;
/**
 * How long the export decrypts and formats rows before it gives the event loop a turn. A batch is about
 * 10 ms of work; a partner's save needs several turns of the loop (each statement's answer is one), and
 * each turn may wait behind one slice, so slices are kept short. Shorter ones (0.5 ms) did not shorten the
 * saves beside an export of a million leads, and a rest between slices (a timer instead of a turn) keeps a
 * batch's rows alive longer: they are promoted, and the pauses grow.
 */
const exportSliceMs = 2;

function toFilter(query: LenderLeadQuery): LenderLeadFilter {
  return {
    companyId: query.companyId?.toLowerCase(),
    status: query.status,
    outcome: query.outcome,
    decision: query.decision,
    affiliate: query.affiliate?.toLowerCase(),
    createdFrom: parseDateFilter(query.createdFrom, 'createdFrom'),
    createdTo: parseDateFilter(query.createdTo, 'createdTo'),
  };
}

/** The filter as given, for the audit record (only what was set). */
const givenFilter = (query: object) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));

/** Why the rules decided what they decided, with each rule's inputs while the data is still held. */
function explanationOf(lead: Lead, report: BureauReport | null, rules: PrequalificationConfig) {
  const stored = lead.prequalification?.explanation;
  if (!stored) return null;
  // Input values are personal data: derived from what is still stored, none once erased.
  const input = report && !lead.erasedAt ? toPrequalificationInput(lead, report) : null;
  return {
    rulesVersion: stored.rulesVersion,
    rules: stored.rules.map((r) => ({
      rule: r.rule,
      outcome: r.outcome,
      inputs: input ? ruleInputs(r.rule, input, rules) : null,
      threshold: r.threshold,
      reason: r.reason,
    })),
  };
}

export function createLenderLeadsService(deps: Deps) {
  const summary = (row: ErasableRow) => ({
    ...leadSummaryView(row),
    companyId: row.company_id,
    erasedAt: row.erased_at?.toISOString() ?? null,
  });

  async function bureauOf(lead: Lead): Promise<{ report: BureauReport; provider: string } | null> {
    const report = await deps.reports.reportOf(lead.id);
    return report ? { report, provider: report.provider } : null;
  }

  return {
    async list(query: LenderLeadQuery & { limit?: number; cursor?: string }) {
      const { rows, nextCursor } = await pageOf(deps, query);
      return { items: rows.map(summary), nextCursor };
    },

    /**
     * The console's inbox: the same page, each lead with who applies and what the amount is made of (its
     * person's names, the vehicle's price, the down payment), opened in one read of the page's keys. Not
     * audited per lead, as the list is not (docs/console.md); opening a lead is.
     */
    async inbox(query: LenderLeadQuery & { limit?: number; cursor?: string }) {
      const { rows, nextCursor } = await pageOf(deps, query);
      await deps.sealer.forReading(rows.map((row) => row.id));
      const items = rows.map((row) => {
        const lead = deps.sealer.toLead(row);
        return { ...summary(row), person: lead.person, vehicle: lead.vehicle, loanInfo: lead.loanInfo };
      });
      return { items, nextCursor };
    },

    /** Leads per status for the same filter (the status itself ignored). Not audited: no personal data. */
    async statusCounts(query: LenderLeadQuery) {
      return deps.queries.countByStatus({ ...toFilter(query), status: undefined });
    },

    async read(origin: AuditOrigin, leadId: string) {
      const row = await deps.queries.find(leadId.toLowerCase());
      if (!row) throw errors.leadNotFound();
      await deps.sealer.forReading([row.id]);
      const lead = deps.sealer.toLead(row);
      const [bureau, consent, events, outcome] = await Promise.all([
        bureauOf(lead),
        deps.consents.of(lead.id),
        deps.leads.events(lead.id),
        deps.outcomes.operatorView(lead.id),
      ]);
      await deps.audit.record(origin, { action: 'lead.read', leadId: lead.id });
      return {
        ...leadView(lead),
        outcome,
        retention: await deps.retentionOf(row),
        companyId: lead.companyId,
        consent: consent
          ? {
              channel: consent.channel,
              destination: consent.destinationMasked,
              pinSentAt: consent.pinSentAt.toISOString(),
              confirmedAt: consent.confirmedAt.toISOString(),
              consumerKey: consent.consumerKey,
              requestId: consent.requestId,
              clientAddress: consent.clientAddress,
              userAgent: consent.userAgent,
            }
          : null,
        bureau: bureau ? bureauSummary(bureau.report, bureau.provider) : null,
        explanation: explanationOf(lead, bureau?.report ?? null, deps.rules),
        events: events.map((e) => ({
          id: e.id,
          type: e.type,
          at: e.at.toISOString(),
          actor: e.actor,
          fields: e.fields,
        })),
      };
    },

    /** Everything held about the lead's person, decrypted (`personalDataOf`). Audited. */
    personalData: (origin: AuditOrigin, leadId: string) => personalDataOf(deps, origin, leadId),

    /**
     * The export's lines, read in keyset batches: the consumer pulls the next batch only when it
     * wants more (backpressure), so memory does not grow with the count. The audit record, with the
     * filter and the rows actually produced, is written when the export ends, even when cut short.
     */
    export(origin: AuditOrigin, query: LenderLeadQuery, format: ExportFormat): AsyncGenerator<string> {
      // Checked before the first byte is sent, so a bad filter is still a 400.
      return exportLines(deps, origin, query, toFilter(query), format);
    },
  };
}

/**
 * The person's access to their data (the "A" of ARCO; docs/lender-api.md, "The person's access"):
 * every personal datum held for the lead, decrypted, with the consent's unmasked destination (the
 * verified contact it was sent to), the bureau report as stored and the conditions asked. Audited.
 * After an erasure the erased sections are null and `erasedAt` says when.
 */
async function personalDataOf(
  deps: Pick<Deps, 'queries' | 'sealer' | 'reports' | 'consents' | 'outcomes' | 'audit' | 'documents'>,
  origin: AuditOrigin,
  leadId: string,
) {
  const row = await deps.queries.find(leadId.toLowerCase());
  if (!row) throw errors.leadNotFound();
  await deps.sealer.forReading([row.id]);
  const lead = deps.sealer.toLead(row);
  const [bureau, consent, outcome, documents] = await Promise.all([
    deps.reports.reportOf(lead.id),
    deps.consents.of(lead.id),
    deps.outcomes.operatorView(lead.id),
    deps.documents.list(lead.id),
  ]);
  await deps.audit.record(origin, { action: 'personal_data_access', leadId: lead.id });
  const contact = lead.phone === null && lead.email === null ? null : { phone: lead.phone, email: lead.email };
  return {
    leadId: lead.id,
    erasedAt: lead.erasedAt?.toISOString() ?? null,
    person: lead.person,
    contact,
    address: lead.address,
    financial: lead.financial,
    consent: consent
      ? {
          channel: consent.channel,
          // The PIN went to the verified contact, frozen since: erased with it.
          destination: (consent.channel === 'SMS' ? lead.phone : lead.email) ?? null,
          pinSentAt: consent.pinSentAt.toISOString(),
          confirmedAt: consent.confirmedAt.toISOString(),
          clientAddress: consent.clientAddress,
          userAgent: consent.userAgent,
        }
      : null,
    bureau: bureau ?? null,
    documents,
    conditions: outcome?.conditions ?? null,
  };
}

/** A page of the lender's list (`limit`, default 20) and the cursor of the next one. */
async function pageOf(deps: Pick<Deps, 'queries'>, query: LenderLeadQuery & { limit?: number; cursor?: string }) {
  const limit = query.limit ?? 20;
  const rows = await deps.queries.list(
    toFilter(query),
    query.cursor ? decodeCursor(query.cursor) : undefined,
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null };
}

/** The export's lines, batch by batch, and its audit record when it ends (see `export`). */
async function* exportLines(
  deps: Pick<Deps, 'queries' | 'sealer' | 'audit'>,
  origin: AuditOrigin,
  query: LenderLeadQuery,
  filter: LenderLeadFilter,
  format: ExportFormat,
): AsyncGenerator<string> {
  let rows = 0;
  try {
    if (format === 'csv') yield csvHeader;
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const batch = await deps.queries.list(filter, after, exportBatchSize);
      if (batch.length === 0) break;
      // The batch's keys for this pass only: an export of every lead leaves the keys in memory as they were.
      const keys = await deps.sealer.forOnePass(batch.map((row) => row.id));
      for (let from = 0; from < batch.length;) {
        if (from > 0) await setImmediate();
        const started = performance.now();
        let chunk = '';
        let end = from;
        do {
          chunk += exportLine(exportRecord(deps.sealer.toLead(batch[end], keys)), format);
          end++;
        } while (end < batch.length && performance.now() - started < exportSliceMs);
        yield chunk;
        // Counted once the stream has taken the chunk: a client that leaves early is audited with what it got.
        rows += end - from;
        from = end;
      }
      const last = batch[batch.length - 1];
      after = { createdAt: last.created_at, id: last.id };
      if (batch.length < exportBatchSize) break;
    }
  } finally {
    await deps.audit.record(origin, { action: 'leads.export', filter: { ...givenFilter(query), format }, rows });
  }
}

export type LenderLeadsService = ReturnType<typeof createLenderLeadsService>;
