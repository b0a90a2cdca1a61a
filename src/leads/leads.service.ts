/**
 * Lead creation and the section writes (ops 5–12). Input is checked before any transaction; each
 * write locks its lead, checks tenancy and status, changes only its own columns and records an
 * event, so concurrent writes to different sections never lose one another.
 */
import { createHmac } from 'node:crypto';
import { errors } from '../http/app-error.ts';
import type { Db, Queryable } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import type { CatalogLookup } from '../catalogs/catalog-lookup.ts';
import type { CompaniesRepository } from '../companies/companies.repository.ts';
import { afterSectionSaved, isVerified } from './lead-status.ts';
import type { LeadChanges, LeadRow, LeadsRepository } from './leads.repository.ts';
import type { LeadSealer, LoanInfo } from './lead-record.ts';
import { checkAddress, checkFinancial, checkPerson, checkVehicle, replaceWarnings, type Financial, type Person } from './lead-sections.ts';

export interface Actor {
  companyId: string;
  consumerKey: string;
}

interface Deps {
  db: Pick<Db, 'transaction'>;
  leads: LeadsRepository;
  companies: Pick<CompaniesRepository, 'findAffiliate'>;
  sealer: LeadSealer;
  catalogs: CatalogLookup;
  clock: Clock;
  /** Verified leads are re-evaluated when loan info, vehicle or financial data change. */
  onVerifiedLeadChanged: (actor: Actor, leadId: string) => Promise<void>;
  /** Keys the fingerprint of idempotent requests: a body holding only a phone is not guessable from it. */
  requestHashKey: Buffer;
}

export interface CreateLeadInput {
  affiliate?: { user_id?: string; user_type?: string };
  autoFinB2BLeadCreatePayload?: {
    externalAutoId?: string; phone?: string; email?: string; downPayment?: number; term?: number; purchaseIntention?: string;
  };
}

const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** JSON with its keys sorted, so the same request written in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const requestFingerprint = (key: Buffer, input: unknown) => createHmac('sha256', key).update(canonicalJson(input)).digest('hex');
const present = (payload: object) => Object.keys(payload).filter((k) => (payload as Record<string, unknown>)[k] !== undefined);
const pick = <T extends object>(payload: T, keys: (keyof T)[]) =>
  Object.fromEntries(keys.filter((k) => payload[k] !== undefined).map((k) => [k, payload[k]])) as Partial<T>;

export function createLeadsService(deps: Deps) {
  const { leads, sealer, clock } = deps;

  interface SectionWrite {
    type: string;
    fields: string[];
    /** Refused with 409 once the lead is verified. */
    frozen: boolean | ((row: LeadRow) => boolean);
    changes: (row: LeadRow) => LeadChanges;
    reevaluate?: boolean;
  }

  async function write(actor: Actor, leadId: string, section: SectionWrite): Promise<void> {
    const now = clock.now();
    const { verified, id } = await deps.db.transaction(async (tx) => {
      const row = await leads.lock(leadId, actor.companyId, tx);
      if (!row) throw errors.leadNotFound();
      const frozen = typeof section.frozen === 'function' ? section.frozen(row) : section.frozen;
      if (frozen && isVerified(row.status)) throw errors.leadVerified();
      // From here on the stored id, never the path's spelling of it: a leadId in upper case finds the
      // same row, but a value sealed with it would never decrypt again (the id is associated data).
      await leads.update(row.id, { ...section.changes(row), status: afterSectionSaved(row.status) }, now, tx);
      await event(tx, row.id, section.type, actor, section.fields, now);
      return { verified: isVerified(row.status), id: row.id };
    });
    if (verified && section.reevaluate) await deps.onVerifiedLeadChanged(actor, id);
  }

  const event = (tx: Queryable, leadId: string, type: string, actor: Actor, fields: string[], at: Date) =>
    leads.insertEvent({ id: newId(), leadId, type, at, actor: actor.consumerKey, fields }, tx);

  const phoneChanges = (leadId: string, phone: string | undefined): LeadChanges =>
    phone === undefined ? {} : { phone_enc: sealer.seal(leadId, 'phone_enc', phone) };
  const emailChanges = (leadId: string, email: string | undefined): LeadChanges =>
    email === undefined ? {} : { email_enc: sealer.seal(leadId, 'email_enc', email.trim()) };
  const loanChanges = (row: LeadRow, loan: LoanInfo): LeadChanges =>
    Object.keys(loan).length === 0 ? {} : { loan_info: { ...(row.loan_info ?? {}), ...loan } };

  async function resolveAffiliate(actor: Actor, affiliate: CreateLeadInput['affiliate']) {
    if (!affiliate?.user_id) return { userId: null, userType: affiliate?.user_type ?? null };
    const found = await deps.companies.findAffiliate(affiliate.user_id.toLowerCase());
    if (!found || found.companyId !== actor.companyId) throw errors.companyNotFound();
    return { userId: found.userId, userType: affiliate.user_type ?? found.userType };
  }

  function newLeadRow(actor: Actor, id: string, input: CreateLeadInput, affiliate: { userId: string | null; userType: string | null }, now: Date): Omit<LeadRow, 'verification' | 'prequalification'> {
    const prefill = input.autoFinB2BLeadCreatePayload ?? {};
    const loan = pick(prefill, ['downPayment', 'term', 'purchaseIntention']);
    const filled = present(prefill).length > 0;
    return {
      id, company_id: actor.companyId, affiliate_user_id: affiliate.userId, affiliate_user_type: affiliate.userType,
      status: filled ? 'IN_PROGRESS' : 'CREATED', external_auto_id: prefill.externalAutoId?.trim() || null,
      loan_info: Object.keys(loan).length ? loan : null,
      phone_enc: prefill.phone ? sealer.seal(id, 'phone_enc', prefill.phone) : null,
      email_enc: prefill.email ? sealer.seal(id, 'email_enc', prefill.email.trim()) : null,
      address_enc: null, vehicle: null, financial_enc: null, person_enc: null, warnings: [], created_at: now, updated_at: now,
    };
  }

  return {
    /** Op 5. With an Idempotency-Key, the same key and body within 24 h returns the first lead. */
    async createLead(actor: Actor, input: CreateLeadInput, idempotencyKey?: string): Promise<{ id: string; replayed: boolean }> {
      const affiliate = await resolveAffiliate(actor, input.affiliate);
      const now = clock.now();
      const id = newId();
      const row = newLeadRow(actor, id, input, affiliate, now);
      const requestHash = requestFingerprint(deps.requestHashKey, input);
      return deps.db.transaction(async (tx) => {
        if (idempotencyKey) {
          const claim = await leads.claimIdempotencyKey(
            { companyId: actor.companyId, key: idempotencyKey, requestHash, leadId: id, at: now, expiredBefore: new Date(now.getTime() - idempotencyWindowMs) },
            tx,
          );
          if (!claim.claimed) {
            if (claim.requestHash !== requestHash) throw errors.idempotencyConflict();
            return { id: claim.leadId, replayed: true };
          }
        }
        await leads.insert(row, tx);
        const fields = present(input.autoFinB2BLeadCreatePayload ?? {}).concat(input.affiliate ? ['affiliate'] : []);
        await event(tx, id, 'LEAD_CREATED', actor, fields, now);
        return { id, replayed: false };
      });
    },

    /** Op 6. Changing the phone of a verified lead is refused; the rest of loan info may change. */
    async saveLoanInfo(actor: Actor, leadId: string, payload: LoanInfo & { phone?: string }) {
      const loan = pick(payload, ['downPayment', 'term', 'purchaseIntention']);
      await write(actor, leadId, {
        type: 'LOAN_INFO_SAVED', fields: present(payload), reevaluate: true,
        frozen: (row) => payload.phone !== undefined && sealer.open(row.id, 'phone_enc', row.phone_enc) !== payload.phone,
        changes: (row) => ({ ...loanChanges(row, loan), ...phoneChanges(row.id, payload.phone) }),
      });
    },

    /** Op 7: saves phone and e-mail and turns the lead into a card of the partner's pipeline. */
    async saveContactInfo(actor: Actor, leadId: string, payload: { phone: string; email: string }) {
      await write(actor, leadId, {
        type: 'CONTACT_INFO_SAVED', fields: ['phone', 'email'], frozen: true,
        changes: (row) => ({ ...phoneChanges(row.id, payload.phone), ...emailChanges(row.id, payload.email) }),
      });
    },

    /** Op 8. */
    async updateContact(actor: Actor, leadId: string, payload: { phone?: string; email?: string }) {
      await write(actor, leadId, {
        type: 'CONTACT_UPDATED', fields: present(payload), frozen: true,
        changes: (row) => ({ ...phoneChanges(row.id, payload.phone), ...emailChanges(row.id, payload.email) }),
      });
    },

    /** Op 9. */
    async saveAddress(actor: Actor, leadId: string, payload: Parameters<typeof checkAddress>[0]) {
      const { address, warnings } = checkAddress(payload, deps.catalogs);
      await write(actor, leadId, {
        type: 'ADDRESS_SAVED', fields: present(payload), frozen: true,
        changes: (row) => ({
          address_enc: sealer.seal(row.id, 'address_enc', address),
          warnings: replaceWarnings(row.warnings, 'address.neighborhood', warnings),
        }),
      });
    },

    /** Op 10. */
    async saveVehicle(actor: Actor, leadId: string, payload: { id: number; price?: number }) {
      const vehicle = checkVehicle(payload, deps.catalogs);
      await write(actor, leadId, { type: 'VEHICLE_SAVED', fields: present(payload), frozen: false, reevaluate: true, changes: () => ({ vehicle }) });
    },

    /** Op 11. */
    async saveFinancial(actor: Actor, leadId: string, payload: Financial) {
      const financial = checkFinancial(payload, clock.now());
      await write(actor, leadId, {
        type: 'FINANCIAL_SAVED', fields: present(payload), frozen: false, reevaluate: true,
        changes: (row) => ({ financial_enc: sealer.seal(row.id, 'financial_enc', financial) }),
      });
    },

    /** Op 12. */
    async savePerson(actor: Actor, leadId: string, payload: Person) {
      const { person, warnings } = checkPerson(payload, clock.now());
      await write(actor, leadId, {
        type: 'PERSON_SAVED', fields: present(payload), frozen: true,
        changes: (row) => ({
          person_enc: sealer.seal(row.id, 'person_enc', person),
          warnings: replaceWarnings(row.warnings, 'person.rfc', warnings),
        }),
      });
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
