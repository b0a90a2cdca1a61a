/**
 * Prepares the embedded database a first start copies: `node dist/embedded-template.js <folder>` (run by
 * scripts/build.mjs) creates a database in `<folder>/pgdata`, applies the migrations and imports the shipped
 * catalogs, as a first start would. Creating a database in WebAssembly takes seconds of one core; copying
 * the prepared files takes a tenth of a second (docs/performance.md, "How starts are kept short").
 * The folder holds no key and no company: those are made by each installation's first start.
 */
import { createCatalogsModule } from './catalogs/index.ts';
import { migrate, openDatabase } from './db/index.ts';
import { systemClock } from './shared/index.ts';

const [folder] = process.argv.slice(2);
if (!folder) throw new Error('usage: node dist/embedded-template.js <folder>');
const db = await openDatabase({ dataDir: folder });
try {
  await migrate(db);
  const catalogs = createCatalogsModule({
    db,
    clock: systemClock,
    warn: (message, error) => console.warn(message, error),
  });
  await catalogs.prepare();
  // The pages reach the data files, so the copy's first start replays no write-ahead log.
  await db.query('checkpoint');
} finally {
  await db.close();
}
