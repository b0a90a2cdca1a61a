/** What other modules use of the lender module. */
export { lenderLeadsRoutes } from './lender-leads.routes.ts';
export { type LenderLeadsService } from './lender-leads.service.ts';

export { createLenderModule } from './lender.module.ts';
