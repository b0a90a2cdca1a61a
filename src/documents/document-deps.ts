/** What the documents module is handed by the composition root (docs/architecture.md). */
import type { KeyObject } from 'node:crypto';
import type { Db, Queryable } from '../db/index.ts';
import type { Clock } from '../shared/index.ts';
import type { LeadSealing } from '../lead-keys/index.ts';
import type { AuditAction, AuditOrigin } from '../audit/index.ts';
import type { DocumentStore } from './document-store.ts';
import type { DocumentsRepository, DocumentSubject } from './documents.repository.ts';

/** The lead a document is uploaded to, locked until the transaction ends (the leads module's). */
export interface DocumentLeads {
  lockForOutcome(leadId: string, tx: Queryable): Promise<DocumentSubject | undefined>;
  /** The lead's company; undefined when there is no such lead. */
  companyOf(leadId: string): Promise<string | undefined>;
}

/** The lead's current decision and the ids of its conditions (the outcomes module's). */
export interface DocumentOutcomes {
  currentConditions(leadId: string, tx?: Queryable): Promise<{ status: string; conditionIds: string[] } | null>;
}

export interface DocumentsDeps {
  db: Pick<Db, 'transaction'>;
  repository: DocumentsRepository;
  store: DocumentStore;
  /** The leads' own keys: each document's key and file name are sealed with its lead's (src/lead-keys). */
  sealing: LeadSealing;
  /** Keys of idempotent uploads' fingerprints, current first (a key rotated since still matches). */
  fingerprintKeys: readonly KeyObject[];
  clock: Clock;
  leads: DocumentLeads;
  outcomes: DocumentOutcomes;
  audit: { record(origin: AuditOrigin, what: { action: AuditAction; leadId: string }, tx?: Queryable): Promise<void> };
  /** The sandbox reviews files named `aceptar-…` and `rechazar-…` at once (docs/sandbox.md). */
  sandbox: boolean;
}
