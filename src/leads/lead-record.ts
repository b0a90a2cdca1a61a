/**
 * A lead as the service works with it, decrypted, and its stored row. Personal sections are sealed with
 * the lead's own key (src/lead-keys), the lead id and column as associated data.
 */
import { createHmac, type KeyObject } from 'node:crypto';
import type { EncryptedColumn } from '../db/index.ts';
import type { Queryable } from '../db/index.ts';
import type { LeadKeyPass, LeadSealing } from '../lead-keys/index.ts';
import type { LeadStatus } from '../lead-status/index.ts';
import type { LeadRow } from './leads.repository.ts';
import type { Address, Financial, Person, Vehicle, Warning } from './lead-sections.ts';

export interface LoanInfo {
  downPayment?: number;
  term?: number;
  purchaseIntention?: string;
}

export interface Verification {
  channel: 'SMS' | 'EMAIL';
  pinSentAt: string;
  verifiedAt: string | null;
}

export interface StoredPrequalification {
  decision: 'PREQUALIFIED' | 'NOT_PREQUALIFIED' | 'INCOMPLETE';
  reasons: { code: string; message: string }[];
  offer: { amountFinanced: number; term: number; annualRate: number; monthlyPayment: number; cat: number } | null;
  evaluatedAt: string;
  /**
   * Each rule's outcome and thresholds (no personal data), for the lender's explanation; leads decided
   * earlier lack it.
   */
  explanation?: {
    rulesVersion: string;
    rules: {
      rule: string;
      outcome: 'pass' | 'fail' | 'missing';
      threshold: Record<string, unknown>;
      reason: { code: string; message: string } | null;
    }[];
  };
}

export interface Lead {
  id: string;
  companyId: string;
  status: LeadStatus;
  createdAt: Date;
  updatedAt: Date;
  externalAutoId: string | null;
  affiliate: { user_id: string | null; user_type: string | null } | null;
  loanInfo: LoanInfo | null;
  phone: string | null;
  email: string | null;
  address: Address | null;
  vehicle: Vehicle | null;
  financial: Financial | null;
  person: Person | null;
  warnings: Warning[];
  verification: Verification | null;
  prequalification: StoredPrequalification | null;
  erasedAt: Date | null;
}

/** The affiliate the lead was created for: its user, or only a user type when no user was named. */
export const affiliateOf = (row: Pick<LeadRow, 'affiliate_user_id' | 'affiliate_user_type'>) =>
  row.affiliate_user_id || row.affiliate_user_type
    ? { user_id: row.affiliate_user_id, user_type: row.affiliate_user_type }
    : null;

export type SealedColumn = 'phone_enc' | 'email_enc' | 'address_enc' | 'financial_enc' | 'person_enc';

const context = (leadId: string, column: SealedColumn) => `lead:${leadId}:${column}`;

/**
 * A keyed fingerprint of a phone (`phone_fp`): tells whether a phone is the lead's verified one without
 * storing it. Taken with the lead's own key; leads whose values were sealed before lead keys keep one taken
 * with a key derived from the data key (`legacyPhoneFingerprint`) until their values move to their key.
 */
export const legacyPhoneFingerprint = (key: KeyObject, phone: string) =>
  createHmac('sha256', key).update(`phone:${phone}`).digest('base64url');
const phoneText = (phone: string) => `phone:${phone}`;

/** The leads' sealed columns; the phone's fingerprint is taken again with the lead's key when it moves there. */
export function leadEncryptedColumns(sealing: LeadSealing): EncryptedColumn[] {
  const columns: SealedColumn[] = ['phone_enc', 'email_enc', 'address_enc', 'financial_enc', 'person_enc'];
  return columns.map((column) => ({
    table: 'leads',
    id: 'id',
    leadOf: 'id',
    column,
    context: (id: string) => context(id, column),
    ...(column === 'phone_enc'
      ? {
          follower: {
            column: 'phone_fp',
            of: (phone: unknown, leadId: string) => sealing.fingerprint(leadId, phoneText(String(phone))),
          },
        }
      : {}),
  }));
}

export function createLeadSealer(sealing: LeadSealing) {
  const open = <T>(
    leadId: string,
    column: SealedColumn,
    sealed: string | null,
    keys: Pick<LeadSealing, 'open'> = sealing,
  ): T | null => (sealed === null ? null : keys.open<T>(leadId, sealed, context(leadId, column)));

  return {
    /** Reads the lead's key (creating it) before its values are sealed. */
    forWriting: (leadId: string, tx?: Queryable) => sealing.forWriting(leadId, tx),
    forWritingAll: (leadIds: readonly string[], tx?: Queryable) => sealing.forWritingAll(leadIds, tx),
    /** Reads the keys of these leads before their rows are opened (`toLead`). */
    forReading: (leadIds: readonly string[], tx?: Queryable) => sealing.forReading(leadIds, tx),
    /** The keys of these leads for one pass over their rows (`toLead(row, keys)`), not kept in memory after. */
    forOnePass: (leadIds: readonly string[], tx?: Queryable) => sealing.forOnePass(leadIds, tx),
    seal: (leadId: string, column: SealedColumn, value: unknown): string =>
      sealing.seal(leadId, value, context(leadId, column)),
    /** The phone's fingerprint with the lead's key (loaded by `forWriting`). */
    phoneFingerprint: (leadId: string, phone: string) => sealing.fingerprint(leadId, phoneText(phone)),
    open,
    /** The row decrypted, its lead's key read first. */
    async read(row: LeadRow, tx?: Queryable): Promise<Lead> {
      await sealing.forReading([row.id], tx);
      return this.toLead(row);
    },
    /** The row decrypted; its lead's key read before (`forReading`), or in `keys` (`forOnePass`). */
    toLead(row: LeadRow, keys?: LeadKeyPass): Lead {
      return {
        id: row.id,
        companyId: row.company_id,
        status: row.status,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        externalAutoId: row.external_auto_id,
        affiliate: affiliateOf(row),
        loanInfo: row.loan_info as LoanInfo | null,
        phone: open<string>(row.id, 'phone_enc', row.phone_enc, keys),
        email: open<string>(row.id, 'email_enc', row.email_enc, keys),
        address: open<Address>(row.id, 'address_enc', row.address_enc, keys),
        vehicle: row.vehicle as Vehicle | null,
        financial: open<Financial>(row.id, 'financial_enc', row.financial_enc, keys),
        person: open<Person>(row.id, 'person_enc', row.person_enc, keys),
        warnings: row.warnings as Warning[],
        verification: row.verification as Verification | null,
        prequalification: row.prequalification as StoredPrequalification | null,
        erasedAt: row.erased_at ?? null,
      };
    },
  };
}

export type LeadSealer = ReturnType<typeof createLeadSealer>;
