/**
 * The write path's reference as a process of its own, as a service instance is one: production-writes.ts
 * starts two beside the two instances. Arguments: the file of the recorded requests
 * (serializeRecorded) and the company id they run for; DATABASE_URL names the database. Prints
 * `listening <url>` once it listens, and stops on SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { openDatabase } from '../src/db/open-database.ts';
import { deserializeRecorded, startWriteReference } from './write-reference.ts';

const [file, companyId] = process.argv.slice(2);
const databaseUrl = process.env.DATABASE_URL;
if (!file || !companyId || !databaseUrl)
  throw new Error('usage: DATABASE_URL=… write-reference-process.ts <recorded file> <company id>');
const db = await openDatabase({ databaseUrl, dataDir: '' });
const reference = await startWriteReference(db, companyId, deserializeRecorded(readFileSync(file)));
process.stdout.write(`listening ${reference.base}\n`);
process.once('SIGTERM', () => {
  void reference.app
    .close()
    .then(() => db.close())
    .then(() => process.exit(0));
});
