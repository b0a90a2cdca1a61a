/**
 * SQL for PINs and PIN sends (the bureau report is stored by src/bureau). Every method takes an optional
 * transaction.
 */
import type { Queryable } from '../db/index.ts';
import type { PendingPin } from './pin.ts';

type PinRow = { pin_hash: string; expires_at: Date; failed_attempts: number; verified_at: Date | null };

export function createVerificationRepository(db: Queryable) {
  return {
    async sendTimes(leadId: string, since: Date, tx: Queryable = db): Promise<Date[]> {
      const { rows } = await tx.query<{ at: Date }>('select at from pin_sends where lead_id = $1 and at > $2', [
        leadId,
        since,
      ]);
      return rows.map((r) => r.at);
    },

    async recordSend(send: { id: string; leadId: string; at: Date }, tx: Queryable = db): Promise<void> {
      await tx.query('insert into pin_sends (id, lead_id, at) values ($1, $2, $3)', [send.id, send.leadId, send.at]);
    },

    async forgetSend(id: string, tx: Queryable = db): Promise<void> {
      await tx.query('delete from pin_sends where id = $1', [id]);
    },

    /** A new PIN replaces the previous one, with a fresh count of tries. */
    async replacePin(
      pin: { leadId: string; pinHash: string; channel: string; sentAt: Date; expiresAt: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into lead_pins (lead_id, pin_hash, channel, sent_at, expires_at, failed_attempts, verified_at)
         values ($1, $2, $3, $4, $5, 0, null)
         on conflict (lead_id) do update set pin_hash = excluded.pin_hash, channel = excluded.channel,
           sent_at = excluded.sent_at, expires_at = excluded.expires_at, failed_attempts = 0, verified_at = null`,
        [pin.leadId, pin.pinHash, pin.channel, pin.sentAt, pin.expiresAt],
      );
    },

    async pendingPin(leadId: string, tx: Queryable = db): Promise<PendingPin | undefined> {
      const { rows } = await tx.query<PinRow>(
        'select pin_hash, expires_at, failed_attempts, verified_at from lead_pins where lead_id = $1',
        [leadId],
      );
      const r = rows[0];
      return r
        ? { pinHash: r.pin_hash, expiresAt: r.expires_at, failedAttempts: r.failed_attempts, verifiedAt: r.verified_at }
        : undefined;
    },

    async countFailedAttempt(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('update lead_pins set failed_attempts = failed_attempts + 1 where lead_id = $1', [leadId]);
    },

    /** Takes the bureau-query lease of a confirmed PIN; false when another confirmation holds it. */
    async takeBureauLease(leadId: string, now: Date, until: Date, tx: Queryable = db): Promise<boolean> {
      const { rowCount } = await tx.query(
        `update lead_pins set bureau_lease_until = $3
         where lead_id = $1 and (bureau_lease_until is null or bureau_lease_until <= $2)`,
        [leadId, now, until],
      );
      return rowCount === 1;
    },

    async releaseBureauLease(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('update lead_pins set bureau_lease_until = null where lead_id = $1', [leadId]);
    },

    async markPinVerified(leadId: string, at: Date, tx: Queryable = db): Promise<void> {
      await tx.query('update lead_pins set verified_at = coalesce(verified_at, $2) where lead_id = $1', [leadId, at]);
    },

    /** The PIN has done its job once the report is stored. */
    async consumePin(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('delete from lead_pins where lead_id = $1', [leadId]);
    },
  };
}

export type VerificationRepository = ReturnType<typeof createVerificationRepository>;
