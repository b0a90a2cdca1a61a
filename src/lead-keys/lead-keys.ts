/**
 * Each lead's own data key (docs/operations.md, "Erasure"): the lead's personal values are sealed with
 * it, and it is stored wrapped by the service's data key (envelope encryption). Erasure destroys the
 * wrapped key, so every copy of the lead's values left anywhere (a dead row, a WAL segment, a backup
 * taken before) can no longer be opened with the keys the service holds; `shred` then rewrites the small
 * partition that held the key, so the key itself is gone from the database's files.
 *
 * Sealed form: `l1.<iv>.<tag>.<body>` (AES-256-GCM, the context as associated data), opened with the key
 * of the lead the caller names. Values sealed with the data key before lead keys (`v1.`, `v2.`) still open
 * with it until key rotation moves them to their lead's key.
 *
 * Keys are read in the statement before their use and kept in memory for a minute (unwrapped on first
 * use): writes always read the key again (`forWriting`, creating it when the lead has none), reads use
 * the memory.
 * Memory holds the 50,000 keys used last: the keys a call asks for become the newest, whether read or
 * already held, so a call's own keys (an export's batch of 500) are never the ones pushed out by it.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import type { Queryable } from '../db/index.ts';
import { errors } from '../http/index.ts';
import type { FieldEncryption } from '../shared/index.ts';

const prefix = 'l1.';
const readTtlMs = 60_000;
const maxCached = 50_000;

export const leadKeyContext = (leadId: string) => `lead:${leadId}:key`;

/** The lead's key is not in memory: the caller did not load it, or the lead's data was erased. */
export class LeadKeyMissing extends Error {
  constructor(readonly leadId: string) {
    super(`the key of lead ${leadId} is not loaded (or was destroyed by an erasure)`);
    this.name = 'LeadKeyMissing';
  }
}

export interface LeadSealing {
  /**
   * Reads (creating when the lead has none) the lead's key, before sealing its values; 409 / 4097 for a
   * lead whose personal data was erased, which gets no key again.
   */
  forWriting(leadId: string, tx?: Queryable): Promise<void>;
  /** The same for many leads in one statement (seeding, migrations). */
  forWritingAll(leadIds: readonly string[], tx?: Queryable): Promise<void>;
  /** Reads the keys of these leads not in memory, before opening their values. */
  forReading(leadIds: readonly string[], tx?: Queryable): Promise<void>;
  /**
   * The keys of these leads for one pass over their values (an export's batch): those in memory, and the
   * others read for this pass only, never kept, so that a read of every lead neither grows memory nor
   * pushes out the keys of the leads partners are working on.
   */
  forOnePass(leadIds: readonly string[], tx?: Queryable): Promise<LeadKeyPass>;
  /** Seals a value of the lead (its key loaded). */
  seal(leadId: string, value: unknown, context: string): string;
  /** Opens a value of the lead: with its key, or with the data key when sealed before lead keys. */
  open<T>(leadId: string, sealed: string, context: string): T;
  /** Whether the value is sealed with a lead's key. */
  isLeadSealed(sealed: string): boolean;
  /** A keyed fingerprint of `text` with the lead's key (its key loaded): tells equal values of the lead apart. */
  fingerprint(leadId: string, text: string): string;
}

/** Opens values of the leads a `forOnePass` read was for. */
export interface LeadKeyPass {
  open<T>(leadId: string, sealed: string, context: string): T;
}

function sealWith(key: KeyObject, value: unknown, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `${prefix}${iv.toString('base64')}.${cipher.getAuthTag().toString('base64')}.${body.toString('base64')}`;
}

function openWith<T>(key: KeyObject, sealed: string, context: string): T {
  const [iv, tag, body] = sealed.slice(prefix.length).split('.');
  if (!iv || !tag || body === undefined) throw new Error('unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as T;
}

/**
 * A lead's key in memory: as stored (wrapped by the data key), and when it was read. It is unwrapped on
 * its first use, so a read of 500 keys (an export's batch) does not unwrap them all in one turn of the
 * event loop.
 */
interface Held {
  wrapped: string;
  key?: KeyObject;
  at: number;
}

const unwrap = (encryption: FieldEncryption, leadId: string, wrapped: string): KeyObject =>
  createSecretKey(Buffer.from(encryption.decrypt<string>(wrapped, leadKeyContext(leadId)), 'base64'));

export interface LeadKeysDeps {
  db: Queryable;
  encryption: FieldEncryption;
  now: () => number;
  /** How many keys memory holds (50,000 unless given). */
  maxCached?: number;
}

/** A lead without a key whose personal data was erased gets no new one: the erasure stays final. */
async function refuseErased(leadIds: string[], tx: Queryable): Promise<void> {
  if (leadIds.length === 0) return;
  const { rows } = await tx.query<{ erased_at: Date }>(
    'select erased_at from leads where id = any($1::uuid[]) and erased_at is not null limit 1',
    [leadIds],
  );
  if (rows[0]) throw errors.personalDataErased(rows[0].erased_at);
}

/** The stored keys of these leads. */
const readKeys = (leadIds: string[], tx: Queryable) =>
  tx.query<{ lead_id: string; key_enc: string }>(
    'select lead_id, key_enc from lead_keys where lead_id = any($1::uuid[])',
    [leadIds],
  );

export function createLeadKeys(deps: LeadKeysDeps) {
  const { db, encryption } = deps;
  const capacity = deps.maxCached ?? maxCached;
  /** The keys in memory, oldest used first (a Map keeps its insertion order). */
  const cache = new Map<string, Held>();

  function keep(leadId: string, entry: Held) {
    cache.delete(leadId);
    cache.set(leadId, entry);
    if (cache.size > capacity) cache.delete(cache.keys().next().value!);
  }

  function remember(leadId: string, keyEnc: string) {
    keep(leadId, { wrapped: keyEnc, at: deps.now() });
  }

  function keyOf(leadId: string, pass?: Map<string, Held>): KeyObject {
    const found = pass ? pass.get(leadId) : cache.get(leadId);
    if (!found) throw new LeadKeyMissing(leadId);
    return (found.key ??= unwrap(encryption, leadId, found.wrapped));
  }

  function open<T>(leadId: string, sealed: string, context: string, pass?: Map<string, Held>): T {
    if (!sealed.startsWith(prefix)) return encryption.decrypt<T>(sealed, context);
    return openWith<T>(keyOf(leadId, pass), sealed, context);
  }

  /** The ids whose keys are not in memory, or were read too long ago to be trusted still. */
  function notFresh(leadIds: readonly string[], now: number, onFresh: (id: string, held: Held) => void): string[] {
    const missing: string[] = [];
    for (const id of new Set(leadIds)) {
      const held = cache.get(id);
      if (held && held.at >= now - readTtlMs) onFresh(id, held);
      else missing.push(id);
    }
    return missing;
  }

  const sealing: LeadSealing = {
    forWriting(leadId, tx = db) {
      return sealing.forWritingAll([leadId], tx);
    },
    async forWritingAll(leadIds, tx = db) {
      const ids = [...new Set(leadIds)];
      const wrapped = ids.map((id) => encryption.encrypt(randomBytes(32).toString('base64'), leadKeyContext(id)));
      // One statement: each lead's key as stored, written first when the lead has none.
      const { rows } = await tx.query<{ lead_id: string; key_enc: string }>(
        `with created as (
           insert into lead_keys (lead_id, key_enc, created_at)
           select id, key_enc, $3 from unnest($1::uuid[], $2::text[]) as k(id, key_enc)
           where not exists (select 1 from leads where leads.id = k.id and leads.erased_at is not null)
           on conflict (lead_id) do nothing returning lead_id, key_enc
         )
         select lead_id, key_enc from created
         union all
         select lead_id, key_enc from lead_keys where lead_id = any($1::uuid[])
           and lead_id not in (select lead_id from created)`,
        [ids, wrapped, new Date(deps.now())],
      );
      for (const row of rows) remember(row.lead_id, row.key_enc);
      // A key another transaction wrote at the same moment: the insert waited for it and skipped, but the
      // statement's snapshot predates it. A new statement sees it.
      const late = ids.filter((id) => !rows.some((row) => row.lead_id === id));
      if (late.length === 0) return;
      const again = await readKeys(late, tx);
      for (const row of again.rows) remember(row.lead_id, row.key_enc);
      await refuseErased(
        late.filter((id) => !again.rows.some((row) => row.lead_id === id)),
        tx,
      );
    },
    async forReading(leadIds, tx = db) {
      const missing = notFresh(leadIds, deps.now(), keep);
      if (missing.length === 0) return;
      const { rows } = await readKeys(missing, tx);
      for (const id of missing) cache.delete(id);
      for (const row of rows) remember(row.lead_id, row.key_enc);
    },
    async forOnePass(leadIds, tx = db) {
      const now = deps.now();
      const pass = new Map<string, Held>();
      const missing = notFresh(leadIds, now, (id, held) => pass.set(id, held));
      if (missing.length > 0) {
        const { rows } = await readKeys(missing, tx);
        for (const row of rows) pass.set(row.lead_id, { wrapped: row.key_enc, at: now });
      }
      return { open: <T>(leadId: string, sealed: string, context: string) => open<T>(leadId, sealed, context, pass) };
    },
    seal: (leadId, value, context) => sealWith(keyOf(leadId), value, context),
    open: <T>(leadId: string, sealed: string, context: string) => open<T>(leadId, sealed, context),
    isLeadSealed: (sealed) => sealed.startsWith(prefix),
    fingerprint: (leadId, text) => createHmac('sha256', keyOf(leadId)).update(text).digest('base64url'),
  };
  return { sealing, forget: (leadId: string) => cache.delete(leadId) };
}
