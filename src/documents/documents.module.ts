/**
 * The documents module as the composition root uses it: documents that answer a lender's conditions
 * (docs/api.md, "Documents"), the store that keeps their sealed bytes, the partner's and the lender's
 * routes, the sweep of objects no document lists, and the columns key rotation covers.
 */
import type { KeyObject } from 'node:crypto';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/index.ts';
import { adminRoutesOf, apiPrefix, type AdminAccess, type ModuleRoutes } from '../http/index.ts';
import { repeatingJob, untilDone } from '../jobs/index.ts';
import type { Clock } from '../shared/index.ts';
import { adminDocumentsRoutes } from './admin-documents.routes.ts';
import { createDatabaseDocumentStore } from './database-document-store.ts';
import type { DocumentStore } from './document-store.ts';
import { createDocumentsRepository } from './documents.repository.ts';
import { documentsRoutes } from './documents.routes.ts';
import { createDocumentsService, type DocumentsService } from './documents.service.ts';
import type { DocumentLeads, DocumentOutcomes, DocumentsDeps } from './document-deps.ts';
import { documentEncryptedColumns } from './document-views.ts';

/** The store DOCUMENT_STORE names; the S3 client is loaded only when it is the bucket. */
export async function openDocumentStore(
  config: Pick<Config, 'documentStore' | 's3'>,
  db: Db,
): Promise<DocumentStore & { close?(): void }> {
  if (config.documentStore !== 's3' || !config.s3) return createDatabaseDocumentStore(db);
  const { createS3DocumentStore } = await import('./s3-document-store.ts');
  return createS3DocumentStore(config.s3);
}

/** Whether the store answers (readiness): the database store is the database, checked on its own. */
export async function documentStoreAnswers(store: DocumentStore): Promise<boolean> {
  if (store.kind === 'database') return true;
  return store.ping().then(
    () => true,
    () => false,
  );
}

/** Each condition's status from its documents: the outcomes module's views read it before documents are wired. */
export const conditionStatusReader = (db: Db) => {
  const repository = createDocumentsRepository(db);
  return async (leadId: string, tx?: Parameters<typeof repository.byCondition>[1]) =>
    new Map(
      (await repository.byCondition(leadId, tx)).map(
        (c) => [c.conditionId, c.accepted ? 'ACCEPTED' : c.latest] as const,
      ),
    );
};

export interface DocumentsModuleDeps {
  db: Db;
  clock: Clock;
  store: DocumentStore;
  sealing: DocumentsDeps['sealing'];
  fingerprintKeys: readonly KeyObject[];
  leads: DocumentLeads;
  outcomes: DocumentOutcomes;
  audit: DocumentsDeps['audit'];
  sandbox: boolean;
  access: AdminAccess;
  warn: (message: string, error?: unknown) => void;
}

export function createDocumentsModule(deps: DocumentsModuleDeps) {
  const { access, warn, ...rest } = deps;
  const service: DocumentsService = createDocumentsService({ ...rest, repository: createDocumentsRepository(deps.db) });
  const routes: ModuleRoutes = {
    partner: [documentsRoutes({ documents: service, prefix: apiPrefix })],
    admin: adminRoutesOf(access, (guard) => [adminDocumentsRoutes({ documents: service, ...guard })]),
  };
  // Objects no document lists (erased, or an upload that never completed) leave the store every 10 minutes.
  const sweep = repeatingJob('document sweep', { firstMs: 30_000, everyMs: 10 * 60_000 }, () =>
    service.sweep(1000).catch((error: unknown) => warn('documents: stored objects could not be removed yet', error)),
  );
  // Digests written plain before they were sealed are sealed after start, a thousand at a time.
  const digests = repeatingJob(
    'document digest sealing',
    { firstMs: 5_000, everyMs: 5_000 },
    untilDone(() =>
      service.sealPlainDigests(1000).catch((error: unknown) => {
        warn('documents: plain digests could not be sealed yet', error);
        return 1;
      }),
    ),
  );
  return { service, routes, jobs: [sweep, digests], encryptedColumns: documentEncryptedColumns };
}

export type DocumentsModule = ReturnType<typeof createDocumentsModule>;
