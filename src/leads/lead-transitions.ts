/**
 * The status moves other modules make on a lead (verification, pre-qualification), each inside the
 * caller's transaction with the lead locked. Each writes the columns, the history entry and the
 * webhook event in one statement (leads.repository.ts `transition`): no other module writes the
 * leads table or the outbox.
 */
import type { Queryable } from '../db/database.ts';
import { newId } from '../shared/ids.ts';
import { afterPinConfirmed, afterPinSent, afterPrequalification, type LeadStatus } from './lead-status.ts';
import type { StoredPrequalification, Verification } from './lead-record.ts';
import { createLeadsRepository, type Transition } from './leads.repository.ts';

export interface TransitionContext {
  leadId: string;
  companyId: string;
  /** The consumer key that made the change (history only). */
  actor: string;
  at: Date;
}

function apply(tx: Queryable, c: TransitionContext, change: Omit<Transition, 'id' | 'companyId' | 'at'>) {
  return createLeadsRepository(tx).transition({ id: c.leadId, companyId: c.companyId, at: c.at, ...change }, tx);
}

/** A PIN was handed to a provider. False when the lead may no longer get one. */
export async function recordPinSent(tx: Queryable, c: TransitionContext, current: LeadStatus, channel: Verification['channel']): Promise<boolean> {
  const status = afterPinSent(current);
  if (!status) return false;
  return apply(tx, c, {
    set: { status, verification: { channel, pinSentAt: c.at.toISOString(), verifiedAt: null } },
    history: { id: newId(), type: 'PIN_SENT', actor: c.actor, fields: ['channel'] },
    outbox: { id: newId(), type: 'lead.pin_sent' },
  });
}

/** The PIN was confirmed; nothing happens when the lead was not waiting for one. */
export async function recordVerified(
  tx: Queryable,
  c: TransitionContext,
  current: LeadStatus,
  verification: Verification,
): Promise<boolean> {
  const status = afterPinConfirmed(current);
  if (!status) return false;
  return apply(tx, c, {
    set: { status, verification: { ...verification, verifiedAt: c.at.toISOString() } },
    history: { id: newId(), type: 'PIN_CONFIRMED', actor: c.actor, fields: ['pin'] },
    outbox: { id: newId(), type: 'lead.verified' },
  });
}

/** Pre-qualification was (re-)evaluated: an event on every evaluation, even when nothing changed. */
export async function recordPrequalification(
  tx: Queryable,
  c: TransitionContext,
  current: LeadStatus,
  prequalification: StoredPrequalification,
): Promise<boolean> {
  return apply(tx, c, {
    set: { prequalification, status: afterPrequalification(current, prequalification.decision) },
    history: { id: newId(), type: 'PREQUALIFICATION_EVALUATED', actor: c.actor, fields: ['prequalification'] },
    outbox: {
      id: newId(), type: 'lead.prequalification_decided',
      decision: prequalification.decision, reasons: prequalification.reasons.map((r) => r.code),
    },
  });
}
