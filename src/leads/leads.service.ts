/**
 * Lead creation and the section writes. Input is checked before anything is written; each section
 * write is one statement that changes only its own columns, under the row lock of its UPDATE, and
 * records its event, so concurrent writes to different sections never lose one another.
 */
import { createHmac, type KeyObject } from 'node:crypto';
import { errors, type AppError, type FieldError } from '../http/index.ts';
import type { Db } from '../db/index.ts';
import { type Clock, newId } from '../shared/index.ts';
import type { CatalogLookup } from '../catalogs/index.ts';
import type { CompanyLookups } from '../companies/index.ts';
import { isVerified } from '../lead-status/index.ts';
import type { Actor } from './actor.ts';
import type { LeadLifecycle } from './lead-lifecycle.ts';
import type { LeadChanges, LeadsRepository, NewLead } from './leads.repository.ts';
import { legacyPhoneFingerprint, type LeadSealer, type LoanInfo } from './lead-record.ts';
import {
  checkAddress,
  checkFinancial,
  checkPerson,
  checkVehicle,
  type Financial,
  type Person,
  type Warning,
} from './lead-sections.ts';

interface Deps {
  db: Pick<Db, 'transaction'>;
  leads: LeadsRepository;
  companies: Pick<CompanyLookups, 'findAffiliate'>;
  sealer: LeadSealer;
  catalogs: CatalogLookup;
  clock: Clock;
  /** Verified leads are pre-qualified again when loan info, vehicle or financial data change. */
  lifecycle: Pick<LeadLifecycle, 'reevaluate'>;
  /**
   * Keys of the fingerprints of idempotent requests and phones (a phone is not guessable from them): the
   * first writes them; the others still match those written before a key rotation.
   */
  fingerprintKeys: readonly KeyObject[];
}

export interface CreateLeadInput {
  affiliate?: { user_id?: string; user_type?: string };
  autoFinB2BLeadCreatePayload?: {
    externalAutoId?: string;
    phone?: string;
    email?: string;
    downPayment?: number;
    term?: number;
    purchaseIntention?: string;
  };
}

const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** JSON with its keys sorted, so the same request written in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const requestFingerprint = (key: KeyObject, input: unknown) =>
  createHmac('sha256', key).update(canonicalJson(input)).digest('hex');
const present = (payload: object) =>
  Object.keys(payload).filter((k) => (payload as Record<string, unknown>)[k] !== undefined);
const pick = <T extends object>(payload: T, keys: (keyof T)[]) =>
  Object.fromEntries(keys.filter((k) => payload[k] !== undefined).map((k) => [k, payload[k]])) as Partial<T>;

/** A section write: what it records and changes, and when it is refused. */
interface Section {
  type: string;
  /** The section's name in the lead read (and in lead.updated events). */
  section: string;
  fields: string[];
  /** Refused with 409 / 4090 once the lead is verified (`keepsPhone`: unless the phone stays this one). */
  frozen: 'never' | 'verified' | { keepsPhone: string };
  /** Column values; personal ones sealed with the lead's stored id. */
  set: (id: string) => LeadChanges;
  mergeLoanInfo?: LoanInfo;
  warnings?: { field: string; list: Warning[] };
  reevaluate?: boolean;
  /** False when `set` seals no value (the lead's key is then not read). */
  seals?: boolean;
}

/**
 * The fingerprints that say "this phone" on a lead (its key loaded): with the lead's key, and with each key
 * derived from the data keys, for a lead whose values were sealed before lead keys.
 */
const phoneFingerprints = (deps: Deps, leadId: string, phone: string) => [
  deps.sealer.phoneFingerprint(leadId, phone),
  ...deps.fingerprintKeys.map((key) => legacyPhoneFingerprint(key, phone)),
];

/** Create lead, with its optional prefill and Idempotency-Key. */
function createLeadCreation(deps: Deps) {
  const { leads, sealer, clock } = deps;

  async function resolveAffiliate(actor: Actor, affiliate: CreateLeadInput['affiliate']) {
    if (!affiliate?.user_id) return { userId: null, userType: affiliate?.user_type ?? null };
    const found = await deps.companies.findAffiliate(affiliate.user_id.toLowerCase());
    if (!found || found.companyId !== actor.companyId) throw errors.companyNotFound({ user_id: affiliate.user_id });
    return { userId: found.userId, userType: affiliate.user_type ?? found.userType };
  }

  function newLeadRow(
    actor: Actor,
    id: string,
    input: CreateLeadInput,
    affiliate: { userId: string | null; userType: string | null },
    now: Date,
  ): NewLead {
    const prefill = input.autoFinB2BLeadCreatePayload ?? {};
    const loan = pick(prefill, ['downPayment', 'term', 'purchaseIntention']);
    const filled = present(prefill).length > 0;
    return {
      id,
      company_id: actor.companyId,
      affiliate_user_id: affiliate.userId,
      affiliate_user_type: affiliate.userType,
      status: filled ? 'IN_PROGRESS' : 'CREATED',
      external_auto_id: prefill.externalAutoId?.trim() || null,
      loan_info: Object.keys(loan).length ? loan : null,
      phone_enc: prefill.phone ? sealer.seal(id, 'phone_enc', prefill.phone) : null,
      phone_fp: prefill.phone ? sealer.phoneFingerprint(id, prefill.phone) : null,
      email_enc: prefill.email ? sealer.seal(id, 'email_enc', prefill.email.trim()) : null,
      address_enc: null,
      vehicle: null,
      financial_enc: null,
      person_enc: null,
      warnings: [],
      created_at: now,
      updated_at: now,
    };
  }

  return {
    /** Create lead. With an Idempotency-Key, the same key and body within the window returns the first lead. */
    async createLead(
      actor: Actor,
      input: CreateLeadInput,
      idempotencyKey?: string,
    ): Promise<{ id: string; replayed: boolean }> {
      const affiliate = await resolveAffiliate(actor, input.affiliate);
      const now = clock.now();
      const id = newId();
      const prefill = input.autoFinB2BLeadCreatePayload;
      // The lead's key first, when the lead starts with a phone or an e-mail to seal.
      if (prefill?.phone || prefill?.email) await sealer.forWriting(id);
      const row = newLeadRow(actor, id, input, affiliate, now);
      const fields = present(input.autoFinB2BLeadCreatePayload ?? {}).concat(input.affiliate ? ['affiliate'] : []);
      const created = { id: newId(), leadId: id, type: 'LEAD_CREATED', at: now, actor: actor.consumerKey, fields };
      const outbox = { id: newId(), type: 'lead.created' } as const;
      if (!idempotencyKey) {
        await leads.insert(row, created, outbox);
        return { id, replayed: false };
      }
      // The body's fingerprint under each key: a key rotated since the first request still matches.
      const requestHashes = deps.fingerprintKeys.map((key) => requestFingerprint(key, input));
      return deps.db.transaction(async (tx) => {
        const claim = await leads.claimIdempotencyKey(
          {
            companyId: actor.companyId,
            key: idempotencyKey,
            requestHash: requestHashes[0]!,
            leadId: id,
            at: now,
            expiredBefore: new Date(now.getTime() - idempotencyWindowMs),
          },
          tx,
        );
        if (!claim.claimed) {
          if (!requestHashes.includes(claim.requestHash)) throw errors.idempotencyConflict();
          return { id: claim.leadId, replayed: true };
        }
        await leads.insert(row, created, outbox, tx);
        return { id, replayed: false };
      });
    },
  };
}

/** What every section write shares: the lead's check, the write itself and the contact columns. */
function createSectionWriter(deps: Deps) {
  const { leads, sealer, clock } = deps;

  /**
   * The order of every section write's answers: the lead (404 for an unknown or another company's
   * lead), then the checks against data, then the write. The schema was checked before. The lead is
   * read only when a check fails (to answer 404 first when it is unknown) or when the write changed
   * no row (404, or 412 for a verified lead), so a save that passes is one statement.
   */
  async function requireLead(actor: Actor, pathId: string): Promise<void> {
    if (!(await leads.find(pathId.toLowerCase(), actor.companyId))) throw errors.leadNotFound();
  }

  /** The section's checks against data, answered after the lead's 404 when they fail. */
  async function checked<T>(actor: Actor, pathId: string, check: () => T): Promise<T> {
    try {
      return check();
    } catch (error) {
      await requireLead(actor, pathId);
      throw error;
    }
  }

  async function checkedAsync<T>(actor: Actor, pathId: string, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (error) {
      await requireLead(actor, pathId);
      throw error;
    }
  }

  /** A write whose fields are all optional must carry one: `{}` has nothing to save. */
  function requireFields(payload: object, invalid: (fields: FieldError[]) => AppError = errors.invalidInput): void {
    if (present(payload).length === 0) throw invalid([{ field: 'body', errorDetail: 'has no field to save' }]);
  }

  async function write(actor: Actor, pathId: string, section: Section): Promise<void> {
    // The stored form of the id: a value sealed with another spelling would never decrypt again.
    const id = pathId.toLowerCase();
    // An erased lead's 409 only once it is known to be the company's lead.
    if (section.seals !== false) await checkedAsync(actor, pathId, () => sealer.forWriting(id));
    const saved = await leads.saveSection({
      id,
      companyId: actor.companyId,
      at: clock.now(),
      set: section.set(id),
      mergeLoanInfo: section.mergeLoanInfo,
      warnings: section.warnings,
      personal: section.seals !== false,
      // The phone's fingerprints are taken once the lead's key is read (above).
      frozen:
        typeof section.frozen === 'object'
          ? { keepsPhone: phoneFingerprints(deps, id, section.frozen.keepsPhone) }
          : section.frozen,
      event: { id: newId(), type: section.type, actor: actor.consumerKey, fields: section.fields },
      // Saving the contact info creates the card in the partner's pipeline; every other section write is an update.
      outbox:
        section.type === 'CONTACT_INFO_SAVED'
          ? { id: newId(), type: 'lead.card_created' }
          : { id: newId(), type: 'lead.updated', sections: { [section.section]: section.fields } },
    });
    if (!saved) {
      const lead = await leads.find(id, actor.companyId);
      if (!lead) throw errors.leadNotFound();
      throw section.seals !== false && lead.erased_at
        ? errors.personalDataErased(lead.erased_at)
        : errors.leadVerified();
    }
    if (section.reevaluate && isVerified(saved.status)) await deps.lifecycle.reevaluate(actor, id);
  }

  const phoneChanges = (leadId: string, phone: string | undefined): LeadChanges =>
    phone === undefined
      ? {}
      : { phone_enc: sealer.seal(leadId, 'phone_enc', phone), phone_fp: sealer.phoneFingerprint(leadId, phone) };
  const emailChanges = (leadId: string, email: string | undefined): LeadChanges =>
    email === undefined ? {} : { email_enc: sealer.seal(leadId, 'email_enc', email.trim()) };

  return { checked, requireFields, write, phoneChanges, emailChanges };
}

/** The section writes of loan info and contact. */
function createContactWrites(deps: Deps) {
  const { checked, requireFields, write, phoneChanges, emailChanges } = createSectionWriter(deps);

  return {
    /** Save loan info. Changing the phone of a verified lead is refused; the rest of loan info may change. */
    async saveLoanInfo(actor: Actor, leadId: string, payload: LoanInfo & { phone?: string }) {
      await checked(actor, leadId, () => requireFields(payload));
      const loan = pick(payload, ['downPayment', 'term', 'purchaseIntention']);
      await write(actor, leadId, {
        type: 'LOAN_INFO_SAVED',
        section: 'loanInfo',
        fields: present(payload),
        reevaluate: true,
        seals: payload.phone !== undefined,
        frozen: payload.phone === undefined ? 'never' : { keepsPhone: payload.phone },
        set: (id) => phoneChanges(id, payload.phone),
        mergeLoanInfo: Object.keys(loan).length ? loan : undefined,
      });
    },

    /** Save contact info: saves phone and e-mail and turns the lead into a card of the partner's pipeline. */
    async saveContactInfo(actor: Actor, leadId: string, payload: { phone: string; email: string }) {
      await write(actor, leadId, {
        type: 'CONTACT_INFO_SAVED',
        section: 'contact',
        fields: ['phone', 'email'],
        frozen: 'verified',
        set: (id) => ({ ...phoneChanges(id, payload.phone), ...emailChanges(id, payload.email) }),
      });
    },

    /** Update contact: phone, e-mail or both. */
    async updateContact(actor: Actor, leadId: string, payload: { phone?: string; email?: string }) {
      await checked(actor, leadId, () => requireFields(payload, errors.invalidContact));
      await write(actor, leadId, {
        type: 'CONTACT_UPDATED',
        section: 'contact',
        fields: present(payload),
        frozen: 'verified',
        set: (id) => ({ ...phoneChanges(id, payload.phone), ...emailChanges(id, payload.email) }),
      });
    },
  };
}

/** The section writes of address, vehicle, employment and income, and person. */
function createDetailWrites(deps: Deps) {
  const { sealer, clock } = deps;
  const { checked, requireFields, write } = createSectionWriter(deps);

  return {
    /** Save address. */
    async saveAddress(actor: Actor, leadId: string, payload: Parameters<typeof checkAddress>[0]) {
      const { address, warnings } = await checked(actor, leadId, () => checkAddress(payload, deps.catalogs));
      await write(actor, leadId, {
        type: 'ADDRESS_SAVED',
        section: 'address',
        fields: present(payload),
        frozen: 'verified',
        set: (id) => ({ address_enc: sealer.seal(id, 'address_enc', address) }),
        warnings: { field: 'address.neighborhood', list: warnings },
      });
    },

    /** Save vehicle. */
    async saveVehicle(actor: Actor, leadId: string, payload: { id: number; price?: number }) {
      const vehicle = await checked(actor, leadId, () => checkVehicle(payload, deps.catalogs));
      await write(actor, leadId, {
        type: 'VEHICLE_SAVED',
        section: 'vehicle',
        fields: present(payload),
        frozen: 'never',
        reevaluate: true,
        seals: false,
        set: () => ({ vehicle }),
      });
    },

    /** Save employment and income. */
    async saveFinancial(actor: Actor, leadId: string, payload: Financial) {
      const financial = await checked(actor, leadId, () => {
        requireFields(payload);
        return checkFinancial(payload, clock.now());
      });
      await write(actor, leadId, {
        type: 'FINANCIAL_SAVED',
        section: 'financial',
        fields: present(payload),
        frozen: 'never',
        reevaluate: true,
        set: (id) => ({ financial_enc: sealer.seal(id, 'financial_enc', financial) }),
      });
    },

    /** Save person. */
    async savePerson(actor: Actor, leadId: string, payload: Person) {
      const { person, warnings } = await checked(actor, leadId, () => checkPerson(payload, clock.now()));
      await write(actor, leadId, {
        type: 'PERSON_SAVED',
        section: 'person',
        fields: present(payload),
        frozen: 'verified',
        set: (id) => ({ person_enc: sealer.seal(id, 'person_enc', person) }),
        warnings: { field: 'person.rfc', list: warnings },
      });
    },
  };
}

export function createLeadsService(deps: Deps) {
  return {
    ...createLeadCreation(deps),
    ...createContactWrites(deps),
    ...createDetailWrites(deps),
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
