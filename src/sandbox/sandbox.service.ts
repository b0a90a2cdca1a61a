/**
 * What only the sandbox environment does (docs/sandbox.md): answer the magic recipients with the
 * failure they name before any provider is called, keep a copy of every PIN message handed to a
 * provider (whichever one is configured) in the database so any instance can show it, and list a
 * lead's messages to the company that owns it.
 */
import { errors, type FailureKind } from '../http/index.ts';
import type { Queryable, EncryptedColumn } from '../db/index.ts';
import type { LeadSealing } from '../lead-keys/index.ts';
import { newId } from '../shared/index.ts';
import { magicFailure, type MagicChannel } from './magic-values.ts';
import { maskRecipient } from './recipient-mask.ts';
import type { SandboxMessagesRepository } from './sandbox-messages.repository.ts';

/** A lead's PIN messages are few (the PIN send limit bounds them); the newest this many are listed. */
export const messagesListed = 50;

export interface SentMessage {
  leadId: string;
  channel: MagicChannel;
  /** The recipient as handed to the provider (+52 E.164 phone, or e-mail). */
  to: string;
  body: string;
  sentAt: Date;
}

export interface MessageView {
  id: string;
  channel: MagicChannel;
  to: string;
  body: string;
  sentAt: string;
}

interface Deps {
  messages: SandboxMessagesRepository;
  /** The company's lead (the leads module's `find`): its stored id, or undefined. */
  leads: { find(leadId: string, companyId: string): Promise<{ id: string } | undefined> };
  /** The leads' own keys, which seal the messages' bodies (src/lead-keys). */
  sealing: LeadSealing;
}

const bodyContext = (id: string) => `sandbox-message:${id}:body`;

/** The kept messages' encrypted bodies, for key rotation (the table exists in every environment). */
export const sandboxEncryptedColumns: EncryptedColumn[] = [
  { table: 'sandbox_messages', id: 'id', leadOf: 'lead_id', column: 'body_enc', context: bodyContext },
];

export function createSandboxService(deps: Deps) {
  return {
    /** The failure a send to this recipient simulates; undefined for an ordinary one. */
    failureFor(channel: MagicChannel, recipient: string): FailureKind | undefined {
      return magicFailure(channel, recipient);
    },

    /** Keeps a copy of a message a provider accepted, in the transaction that stores its PIN. */
    async record(message: SentMessage, tx?: Queryable): Promise<void> {
      const id = newId();
      await deps.sealing.forWriting(message.leadId, tx);
      await deps.messages.insert(
        {
          id,
          leadId: message.leadId,
          channel: message.channel,
          toMasked: maskRecipient(message.channel, message.to),
          bodyEnc: deps.sealing.seal(message.leadId, message.body, bodyContext(id)),
          sentAt: message.sentAt,
        },
        tx,
      );
    },

    /** Forgets the lead's messages (erasure of the lead's personal data). */
    async eraseLead(leadId: string, tx: Queryable): Promise<void> {
      await deps.messages.deleteByLead(leadId, tx);
    },

    async listMessages(companyId: string, leadId: string): Promise<{ items: MessageView[] }> {
      const lead = await deps.leads.find(leadId, companyId);
      if (!lead) throw errors.leadNotFound();
      const stored = await deps.messages.listByLead(lead.id, messagesListed);
      await deps.sealing.forReading([lead.id]);
      return {
        items: stored.map((m) => ({
          id: m.id,
          channel: m.channel,
          to: m.toMasked,
          body: deps.sealing.open<string>(lead.id, m.bodyEnc, bodyContext(m.id)),
          sentAt: m.sentAt.toISOString(),
        })),
      };
    },
  };
}

export type SandboxService = ReturnType<typeof createSandboxService>;
