/** What other modules and the composition root may use of the documents module. */
export {
  createDocumentsModule,
  conditionStatusReader,
  documentStoreAnswers,
  openDocumentStore,
  type DocumentsModule,
} from './documents.module.ts';
export { type DocumentStore } from './document-store.ts';
export { type DocumentsService } from './documents.service.ts';
export { type DocumentView } from './document-views.ts';
export { documentHeaders } from './admin-documents.routes.ts';
export { EventDocument as EventDocumentSchema } from './documents.schemas.ts';
export { REJECTION_REASONS, DOCUMENT_TYPES, type RejectionReason } from './documents.repository.ts';
