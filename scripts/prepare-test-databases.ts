/** Builds the template databases once before the test files start (see test/test-database.ts). */
import { ensurePgliteTemplate, ensurePostgresTemplate } from '../test/test-templates.ts';

const started = Date.now();
if (process.env.DATABASE_URL) await ensurePostgresTemplate(process.env.DATABASE_URL);
else await ensurePgliteTemplate();
console.log(
  `test database template ready (${process.env.DATABASE_URL ? 'postgres' : 'pglite'}) in ${Date.now() - started} ms`,
);
