/**
 * PIN send and PIN confirmation. Provider calls never run inside a transaction;
 * a provider failure changes nothing (docs/api.md, "412: third-party failures"): a failed send leaves
 * the previous PIN as it was, and a bureau failure leaves the lead VERIFIED with its confirmed PIN, so the same
 * confirmation can simply be retried.
 */
import type { KeyObject } from 'node:crypto';
import { errors, toAppError } from '../http/index.ts';
import type { Db, Queryable } from '../db/index.ts';
import { type Clock, newId } from '../shared/index.ts';
import type { EmailSender, SmsSender, Outbound } from '../providers/index.ts';
import type { Bureau, BureauAnswer } from '../bureau/index.ts';
import { type Actor, type Lead, type LeadLifecycle } from '../leads/index.ts';
import { isVerified } from '../lead-status/index.ts';
import type { SandboxService } from '../sandbox/index.ts';
import { checkPin, generatePin, hashPin, pinValidityMs, sendThrottle, sendWindowMs, toE164 } from './pin.ts';
import { pinEmail, pinSms } from './pin-message.ts';
import type { VerificationRepository } from './verification.repository.ts';
import { maskDestination, type Consents } from '../consent/index.ts';
import { subjectOf } from './bureau-subject.ts';

export type Channel = 'SMS' | 'EMAIL';

/** The confirming call, kept as the consent receipt of the bureau query. */
export interface CallOrigin {
  requestId: string;
  clientAddress: string;
  userAgent: string | null;
}

interface Deps {
  db: Pick<Db, 'transaction'>;
  /** The lead, read and moved through its owner (history, webhook event and pre-qualification included). */
  leads: Pick<LeadLifecycle, 'find' | 'lock' | 'recordPinSent' | 'recordVerified' | 'recordReport'>;
  verification: VerificationRepository;
  consents: Pick<Consents, 'record'>;
  providers: { sms: SmsSender; email: EmailSender; outbound: Outbound };
  bureau: Pick<Bureau, 'query' | 'save' | 'hasReport'>;
  /** Keys of PIN hashes: the first hashes new PINs; the others still check PINs sent before a key rotation. */
  pinKeys: readonly KeyObject[];
  clock: Clock;
  /** How long a confirmation may hold the bureau query before another may try (a crash mid-query). */
  bureauLeaseMs: number;
  /** Sandbox environment only (docs/sandbox.md): magic recipients, and a copy of each message sent. */
  sandbox?: Pick<SandboxService, 'failureFor' | 'record'>;
}

/** PIN send: the throttle, the provider, then the PIN stored with the lead's move to PIN_SENT. */
function createPinSending(deps: Deps) {
  const { leads, verification, clock } = deps;

  async function readLead(actor: Actor, leadId: string): Promise<Lead> {
    const lead = await leads.find(leadId, actor.companyId);
    if (!lead) throw errors.leadNotFound();
    return lead;
  }

  /** Reserves one of the sends the window allows, under the lead's lock so two sends can't both pass. */
  async function reserveSend(actor: Actor, leadId: string, now: Date): Promise<string> {
    return deps.db.transaction(async (tx) => {
      const row = await leads.lock(leadId, actor.companyId, tx);
      if (!row) throw errors.leadNotFound();
      if (isVerified(row.status)) throw errors.leadVerified();
      const wait = sendThrottle(await verification.sendTimes(leadId, new Date(now.getTime() - sendWindowMs), tx), now);
      if (wait > 0) throw errors.tooManyRequests('PIN_SEND_LIMIT', wait);
      const id = newId();
      await verification.recordSend({ id, leadId, at: now }, tx);
      return id;
    });
  }

  async function deliver(lead: Lead, channel: Channel, pin: string) {
    if (channel === 'SMS') {
      const message = pinSms(toE164(lead.phone!), pin);
      return {
        provider: 'sms' as const,
        sent: { to: message.to, body: message.body },
        result: await deps.providers.outbound.call('sms', (signal) => deps.providers.sms.send(message, signal)),
      };
    }
    const message = pinEmail(lead.email!, pin);
    return {
      provider: 'email' as const,
      sent: { to: message.to, body: message.text },
      result: await deps.providers.outbound.call('email', (signal) => deps.providers.email.send(message, signal)),
    };
  }

  return {
    async sendPin(actor: Actor, leadId: string, channel: Channel): Promise<void> {
      const lead = await readLead(actor, leadId);
      if (isVerified(lead.status)) throw errors.leadVerified();
      if (channel === 'SMS' && !lead.phone) throw errors.pinRejected('NO_PHONE_ON_FILE');
      if (channel === 'EMAIL' && !lead.email) throw errors.pinRejected('NO_EMAIL_ON_FILE');
      // A sandbox magic recipient fails as it says with no provider called, no send counted, no PIN.
      const simulated = deps.sandbox?.failureFor(channel, channel === 'SMS' ? lead.phone! : lead.email!);
      if (simulated) throw errors.providerFailed(channel === 'SMS' ? 'sms' : 'email', simulated);
      const sendId = await reserveSend(actor, leadId, clock.now());
      const pin = generatePin();
      const { provider, sent, result } = await deliver(lead, channel, pin);
      if (!result.ok) {
        // A call the open circuit never made was not handed to the provider: it does not count.
        if (result.kind === 'circuit_open') await verification.forgetSend(sendId);
        throw toAppError(provider, result);
      }
      const sentAt = clock.now();
      await deps.db.transaction(async (tx) => {
        const row = await leads.lock(leadId, actor.companyId, tx);
        const context = { leadId, companyId: actor.companyId, actor: actor.consumerKey, at: sentAt };
        if (!row || !(await leads.recordPinSent(tx, context, row.status, channel))) throw errors.leadVerified();
        await verification.replacePin(
          {
            leadId,
            pinHash: hashPin(deps.pinKeys[0]!, lead.id, pin),
            channel,
            sentAt,
            expiresAt: new Date(sentAt.getTime() + pinValidityMs),
          },
          tx,
        );
        await deps.sandbox?.record({ leadId: row.id, channel, ...sent, sentAt }, tx);
      });
    },
  };
}

/** PIN confirmation: the PIN checked, the lead verified, the bureau asked, its report stored and applied. */
function createPinConfirmation(deps: Deps) {
  const { leads, verification, clock } = deps;

  return {
    async confirmPin(
      actor: Actor,
      leadId: string,
      payload: { pin: string; pinConfirmation?: string },
      origin?: CallOrigin,
    ): Promise<void> {
      const lead = await confirmInTransaction(actor, leadId, payload, origin);
      const subject = subjectOf(lead);
      const result = subject
        ? await deps.bureau.query(subject)
        : ({ ok: false, kind: 'rejected', detail: 'the lead has no person or address' } as const);
      if (!result.ok) {
        await verification.releaseBureauLease(lead.id);
        throw toAppError('bureau', result);
      }
      await storeReport(actor, leadId, result.value);
    },
  };

  /** Checks the PIN; a wrong try is counted (and committed) before the 400 is answered. */
  async function confirmInTransaction(
    actor: Actor,
    leadId: string,
    payload: { pin: string; pinConfirmation?: string },
    origin?: CallOrigin,
  ): Promise<Lead> {
    const now = clock.now();
    const outcome = await deps.db.transaction(async (tx) => {
      const lead = await leads.lock(leadId, actor.companyId, tx);
      if (!lead) throw errors.leadNotFound();
      // Refused without counting as a try: the partner's form did not match, the person did not guess.
      if (payload.pinConfirmation !== undefined && payload.pinConfirmation !== payload.pin) {
        throw errors.pinRejected('PIN_CONFIRMATION_MISMATCH', [
          { field: 'pinConfirmation', errorDetail: 'must equal pin' },
        ]);
      }
      if (lead.prequalification && (await deps.bureau.hasReport(leadId, tx))) throw errors.leadVerified();
      // Checked first, so a confirmation the bureau could not run anyway costs no try.
      if (!lead.person || !lead.address) throw errors.pinRejected('PERSON_AND_ADDRESS_REQUIRED');
      // The stored id, never the path's spelling of it (a uuid in upper case finds the same row).
      const pending = await verification.pendingPin(leadId, tx);
      const hashes = deps.pinKeys.map((key) => hashPin(key, lead.id, payload.pin));
      // A PIN sent before a key rotation was hashed with a previous key.
      const checks = hashes.map((hash) => checkPin(pending, hash, now));
      const check = checks.find((c) => c.ok) ?? checks[0]!;
      if (!check.ok) {
        if (check.countsAsTry) await verification.countFailedAttempt(leadId, tx);
        return { rejected: check.reason } as const;
      }
      // One bureau query at a time per lead: a concurrent confirmation is told the lead is verified.
      const leaseUntil = new Date(now.getTime() + deps.bureauLeaseMs);
      if (!(await verification.takeBureauLease(leadId, now, leaseUntil, tx))) throw errors.leadVerified();
      const context = { leadId, companyId: actor.companyId, actor: actor.consumerKey, at: now };
      if (await leads.recordVerified(tx, context, lead.status, lead.verification!)) {
        await verification.markPinVerified(leadId, now, tx);
        const channel = lead.verification!.channel;
        await deps.consents.record(
          {
            leadId: lead.id,
            channel,
            destinationMasked: maskDestination(channel, channel === 'SMS' ? lead.phone : lead.email),
            pinSentAt: new Date(lead.verification!.pinSentAt),
            confirmedAt: now,
            consumerKey: actor.consumerKey,
            requestId: origin?.requestId ?? null,
            clientAddress: origin?.clientAddress ?? null,
            userAgent: origin?.userAgent ?? null,
          },
          tx,
        );
      }
      return { lead } as const;
    });
    if ('rejected' in outcome) throw errors.pinRejected(outcome.rejected!);
    return outcome.lead;
  }

  async function storeReport(actor: Actor, leadId: string, answer: BureauAnswer): Promise<void> {
    const now = clock.now();
    await deps.db.transaction(async (tx) => {
      const lead = await leads.lock(leadId, actor.companyId, tx);
      if (!lead) throw errors.leadNotFound();
      await deps.bureau.save(leadId, answer, now, tx);
      await verification.consumePin(leadId, tx);
      const context = { leadId: lead.id, companyId: actor.companyId, actor: actor.consumerKey, at: now };
      await leads.recordReport(tx, context, lead, answer.report);
    });
  }
}

export function createVerificationService(deps: Deps) {
  return {
    ...createPinSending(deps),
    /** Forgets the lead's PIN (erasure of the lead's personal data). */
    async erasePin(leadId: string, tx: Queryable): Promise<void> {
      await deps.verification.consumePin(leadId, tx);
    },
    ...createPinConfirmation(deps),
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
