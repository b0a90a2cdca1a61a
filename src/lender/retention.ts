/**
 * How long a lead's personal data is kept (docs/lender-api.md, "Erasure and retention"): a credit (a lead
 * whose outcome is FUNDED) for CREDIT_RETENTION_YEARS from its funding, the anti-money-laundering record
 * period; any other lead until PII_RETENTION_DAYS after its last change; a lead under legal hold for as
 * long as the hold lasts. Pure: the lead's dates and outcome in, the retention out.
 */
export interface RetentionPolicy {
  piiRetentionDays: number;
  creditRetentionYears: number;
}

export interface Retention {
  class: 'credit' | 'lead';
  /** When the purge may erase it (a hold aside): the funding plus the credit years, else the last change plus days. */
  retainedUntil: string;
  legalHold: boolean;
}

const dayMs = 86_400_000;

/** `date` moved by whole years, on the same day and time (29 February onto 28 February). */
export function addYears(date: Date, years: number): Date {
  const moved = new Date(date.getTime());
  moved.setUTCFullYear(date.getUTCFullYear() + years);
  if (moved.getUTCDate() !== date.getUTCDate()) moved.setUTCDate(0);
  return moved;
}

export function retentionOf(
  policy: RetentionPolicy,
  lead: { updatedAt: Date; legalHold: boolean },
  outcome: { status: string; at: string } | null,
): Retention {
  const credit = outcome?.status === 'FUNDED';
  const until = credit
    ? addYears(new Date(outcome.at), policy.creditRetentionYears)
    : new Date(lead.updatedAt.getTime() + policy.piiRetentionDays * dayMs);
  return { class: credit ? 'credit' : 'lead', retainedUntil: until.toISOString(), legalHold: lead.legalHold };
}

/** Whether an erasure must wait: a hold, or a credit inside its retention. */
export const underRetention = (retention: Retention, now: Date): boolean =>
  retention.legalHold || (retention.class === 'credit' && now.getTime() < Date.parse(retention.retainedUntil));
