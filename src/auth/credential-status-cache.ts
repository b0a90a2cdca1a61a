/**
 * Remembers briefly whether a credential is active, so checking a token costs no database round
 * trip on the hot path. Revocation clears the entry at once on this instance and, through the
 * invalidation bus (Redis when configured), on every other instance.
 */
export interface CredentialStatus {
  active: boolean;
  companyId: string | undefined;
}

export interface CredentialStatusCache {
  get(consumerKey: string, nowMs: number): CredentialStatus | undefined;
  set(consumerKey: string, status: CredentialStatus, nowMs: number): void;
  invalidate(consumerKey: string): void;
}

export function createCredentialStatusCache(ttlMs: number, maxEntries = 10_000): CredentialStatusCache {
  const entries = new Map<string, { status: CredentialStatus; until: number }>();
  return {
    get(consumerKey, nowMs) {
      const entry = entries.get(consumerKey);
      if (!entry) return undefined;
      if (entry.until <= nowMs) {
        entries.delete(consumerKey);
        return undefined;
      }
      return entry.status;
    },
    set(consumerKey, status, nowMs) {
      if (entries.size >= maxEntries) entries.clear();
      entries.set(consumerKey, { status, until: nowMs + ttlMs });
    },
    invalidate(consumerKey) {
      entries.delete(consumerKey);
    },
  };
}
