/**
 * Key rotation (docs/operations.md, "Rotating keys"): which keys the stored values need, the check a
 * start makes before serving, and re-encrypting the values of previous keys with the current one.
 */
import type { FieldEncryption } from '../shared/index.ts';
import type { KeyCount, SealedValues } from '../db/index.ts';

/** Stored values need keys that are not configured: the service must not serve. */
export class MissingKeysError extends Error {
  constructor(
    readonly missing: KeyCount[],
    readonly unopenable: number,
  ) {
    const named = missing.map((m) => `${m.keyId} (${m.values} values)`);
    const unlabelled =
      unopenable > 0
        ? [`${unopenable} values stored before key ids were recorded open with none of the configured keys`]
        : [];
    super(
      'autofin refuses to start: stored values need data encryption keys that are not configured: ' +
        [...named.map((n) => `key id ${n}`), ...unlabelled].join('; ') +
        '. Give each missing key in DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_PREVIOUS_KEYS.',
    );
    this.name = 'MissingKeysError';
  }
}

interface Deps {
  values: SealedValues;
  /** Leads' values sealed before lead keys, moved to their leads' keys; how many were moved. */
  moveToLeadKeys: (limit: number) => Promise<number>;
  encryption: FieldEncryption;
  signing: { kid: string; previousKids: readonly string[] };
}

export function createKeysService(deps: Deps) {
  const { encryption, values } = deps;
  const known = new Set([encryption.currentKeyId, ...encryption.previousKeyIds]);
  const remainingOf = (stored: KeyCount[]) =>
    stored.filter((s) => s.keyId !== encryption.currentKeyId).reduce((sum, s) => sum + s.values, 0);

  return {
    async status() {
      return {
        current: encryption.currentKeyId,
        previous: [...encryption.previousKeyIds],
        stored: await values.countByKey(),
        signing: { current: deps.signing.kid, previous: [...deps.signing.previousKids] },
      };
    },

    /**
     * Up to `limit` values of previous keys re-encrypted with the current one (leads' values moved to their
     * leads' keys instead); how many are left after.
     */
    async reencrypt(limit: number): Promise<{ reencrypted: number; remaining: number }> {
      const resealed = await values.reseal(limit);
      const reencrypted = resealed + (resealed < limit ? await deps.moveToLeadKeys(limit - resealed) : 0);
      return { reencrypted, remaining: remainingOf(await values.countByKey()) };
    },

    /**
     * Before serving: labels the values stored before key ids were recorded with their key's id, then
     * throws MissingKeysError when any stored value needs a key that is neither current nor previous.
     * One statement when every value is labelled (the count tells), as it is once a start has labelled them.
     */
    async checkStored(): Promise<void> {
      let stored = await values.countByKey();
      let unopenable = 0;
      if (stored.some((s) => s.keyId === null)) {
        unopenable = await values.labelUnlabelled();
        stored = await values.countByKey();
      }
      const missing = stored.filter((s) => s.keyId !== null && !known.has(s.keyId));
      if (missing.length > 0 || unopenable > 0) throw new MissingKeysError(missing, unopenable);
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
