/** What other modules and the composition root may use of the lead keys module. */
export { createLeadKeysModule, type LeadKeysModule } from './lead-keys.module.ts';
export { type LeadSealing, type LeadKeyPass, LeadKeyMissing, leadKeyContext, createLeadKeys } from './lead-keys.ts';
export { createLeadKeyMigration, type LeadColumn } from './lead-key-migration.ts';
