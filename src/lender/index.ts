/** What other modules use of the lender module. */
export { lenderLeadsRoutes } from './lender-leads.routes.ts';
export { createLenderLeadsService, type LenderLeadsService } from './lender-leads.service.ts';
export { createPersonalDataErasure } from './personal-data-erasure.ts';
export { createLenderModule, type LenderModule } from './lender.module.ts';
