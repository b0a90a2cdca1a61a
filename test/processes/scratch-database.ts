/** A database of its own on a PostgreSQL server (created here, dropped by `drop`). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type ScratchDatabase = Awaited<ReturnType<typeof createScratchDatabase>>;

/** `prefix` starts the database's name, followed by random characters. */
export async function createScratchDatabase(serverUrl: string, prefix = 'autofin_scratch') {
  const name = `${prefix.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
