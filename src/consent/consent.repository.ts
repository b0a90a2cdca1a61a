/** SQL for consent receipts: the PIN confirmation that authorized a lead's bureau query. */
import type { Queryable } from '../db/index.ts';

export interface ConsentReceipt {
  leadId: string;
  channel: 'SMS' | 'EMAIL';
  destinationMasked: string | null;
  pinSentAt: Date;
  confirmedAt: Date;
  consumerKey: string;
  requestId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
}

type Row = {
  lead_id: string;
  channel: 'SMS' | 'EMAIL';
  destination_masked: string | null;
  pin_sent_at: Date;
  confirmed_at: Date;
  consumer_key: string;
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
};

export function createConsentRepository(db: Queryable) {
  return {
    /** The first confirmation is the consent; a retried confirmation (after a bureau failure) keeps it. */
    async record(c: ConsentReceipt, tx: Queryable = db): Promise<void> {
      await tx.query(
        `insert into lead_consents (lead_id, channel, destination_masked, pin_sent_at,
          confirmed_at, consumer_key, request_id, client_address, user_agent)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9) on conflict (lead_id) do nothing`,
        [
          c.leadId,
          c.channel,
          c.destinationMasked,
          c.pinSentAt,
          c.confirmedAt,
          c.consumerKey,
          c.requestId,
          c.clientAddress,
          c.userAgent,
        ],
      );
    },

    async of(leadId: string, tx: Queryable = db): Promise<ConsentReceipt | undefined> {
      const { rows } = await tx.query<Row>('select * from lead_consents where lead_id = $1', [leadId]);
      const r = rows[0];
      return (
        r && {
          leadId: r.lead_id,
          channel: r.channel,
          destinationMasked: r.destination_masked,
          pinSentAt: r.pin_sent_at,
          confirmedAt: r.confirmed_at,
          consumerKey: r.consumer_key,
          requestId: r.request_id,
          clientAddress: r.client_address,
          userAgent: r.user_agent,
        }
      );
    },
  };
}

export type ConsentRepository = ReturnType<typeof createConsentRepository>;
