/** SQL for the sandbox's copies of PIN messages. Every method takes an optional transaction. */
import type { Queryable } from '../db/index.ts';

export interface StoredMessage {
  id: string;
  leadId: string;
  channel: 'SMS' | 'EMAIL';
  toMasked: string;
  bodyEnc: string;
  sentAt: Date;
}

type Row = {
  id: string;
  lead_id: string;
  channel: 'SMS' | 'EMAIL';
  to_masked: string;
  body_enc: string;
  sent_at: Date;
};

export function createSandboxMessagesRepository(db: Queryable) {
  return {
    async insert(message: StoredMessage, tx: Queryable = db): Promise<void> {
      await tx.query(
        'insert into sandbox_messages (id, lead_id, channel, ' +
          'to_masked, body_enc, sent_at) values ($1, $2, $3, $4, $5, $6)',
        [message.id, message.leadId, message.channel, message.toMasked, message.bodyEnc, message.sentAt],
      );
    },

    /** Forgets a lead's messages (its personal data is being erased). */
    async deleteByLead(leadId: string, tx: Queryable = db): Promise<void> {
      await tx.query('delete from sandbox_messages where lead_id = $1', [leadId]);
    },

    /** Newest first; messages sent in the same instant keep the order they were recorded in. */
    async listByLead(leadId: string, limit: number, tx: Queryable = db): Promise<StoredMessage[]> {
      const { rows } = await tx.query<Row>(
        `select id, lead_id, channel, to_masked, body_enc, sent_at from sandbox_messages
         where lead_id = $1 order by sent_at desc, seq desc limit $2`,
        [leadId, limit],
      );
      return rows.map((r) => ({
        id: r.id,
        leadId: r.lead_id,
        channel: r.channel,
        toMasked: r.to_masked,
        bodyEnc: r.body_enc,
        sentAt: r.sent_at,
      }));
    },
  };
}

export type SandboxMessagesRepository = ReturnType<typeof createSandboxMessagesRepository>;
