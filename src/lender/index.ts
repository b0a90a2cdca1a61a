/** What other modules use of the lender module. */

export { type LenderLeadsService } from './lender-leads.service.ts';

export { createLenderModule } from './lender.module.ts';
