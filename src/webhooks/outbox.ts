/**
 * The outbox of lead events (docs/webhooks.md): every change of a lead writes its event, and one
 * pending delivery per subscribed endpoint, in the same SQL statement as the change itself, so an
 * acknowledged change is never without its event and an event never without its change. The modules
 * that change leads (leads, outcomes) are handed `outboxCtes` by the composition root and join it to
 * their statement; only this module writes the webhook tables.
 * Payloads are thin and carry no personal data: a receiver reads details with GET /leads/{leadId}.
 * With tracing on, an event keeps the trace of the request that wrote it, and its deliveries join it.
 */
import { currentTraceparent } from '../shared/index.ts';

export const leadEventTypes = [
  'lead.created',
  'lead.card_created',
  'lead.updated',
  'lead.pin_sent',
  'lead.verified',
  'lead.prequalification_decided',
  'lead.outcome_changed',
  'lead.document_received',
  'lead.document_reviewed',
] as const;
export type LeadEventType = (typeof leadEventTypes)[number];

export interface OutboxEvent {
  id: string;
  type: LeadEventType;
  /** Names of the sections and fields changed (lead.updated only). */
  sections?: Record<string, string[]>;
  /** lead.prequalification_decided only. */
  decision?: string;
  reasons?: string[];
  /** lead.outcome_changed only: the partner's view of the lender's decision (never the note). */
  outcome?: object;
  /** lead.document_* only: the document's metadata (never its file name or digest) and its condition's status. */
  document?: object;
  condition?: { id: string; status: string };
}

/**
 * Two CTEs (`outbox_event`, `outbox_deliveries`) writing `event` for each row of `source`, a CTE
 * that returns the lead's id, company_id, external_auto_id and status after the change. `p` adds a
 * parameter and returns its placeholder; `at` is the placeholder of the change's time.
 */
export function outboxCtes(source: string, event: OutboxEvent, at: string, p: (value: unknown) => string): string {
  const extra: Record<string, unknown> = {};
  if (event.sections) extra.sections = event.sections;
  if (event.decision !== undefined) {
    extra.decision = event.decision;
    extra.reasons = event.reasons ?? [];
  }
  if (event.outcome !== undefined) extra.outcome = event.outcome;
  if (event.document !== undefined) extra.document = event.document;
  if (event.condition !== undefined) extra.condition = event.condition;
  return `outbox_event as (
      insert into webhook_events (id, type, company_id, lead_id, occurred_at, data, trace_parent)
      select ${p(event.id)}::uuid, ${p(event.type)}, company_id, id, ${at},
        jsonb_build_object('companyId', company_id, 'leadId', id, 'externalAutoId', external_auto_id, 'status', status)
          || ${p(JSON.stringify(extra))}::jsonb,
        ${p(currentTraceparent() ?? null)}::text
      from ${source}
      returning id, type, company_id, occurred_at
    ), outbox_deliveries as (
      insert into webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at)
      select gen_random_uuid(), e.id, v.id, v.occurred_at, v.occurred_at
      from outbox_event v join webhook_endpoints e on e.enabled
        and (e.company_id is null or e.company_id = v.company_id)
        and (e.event_types is null or e.event_types @> to_jsonb(v.type))
    )`;
}
