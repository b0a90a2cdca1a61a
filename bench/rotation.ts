/**
 * `npm run bench -- rotation`: how long rotating DATA_ENCRYPTION_KEY takes over 100,000 leads
 * (`BENCH_ROTATION_LEADS`), each with a phone, an e-mail and a person sealed, on PostgreSQL (DATABASE_URL,
 * default the local test server; a fresh schema) or, with `BENCH_ENGINE=pglite`, the embedded engine.
 *   - with lead keys (the service as it is): the leads' values are sealed with their own keys, and
 *     rotation re-wraps one key per lead (`keys.reencrypt` until nothing remains);
 *   - every value under the data key (as before lead keys): the same leads' three values each sealed with
 *     the data key, re-encrypted by the same batched, row-locking re-sealing the service uses for the
 *     columns the data key seals directly.
 * Both run in this process against the database, without HTTP; the figures are the wall time of each.
 */
import { randomBytes } from 'node:crypto';
import { createContainer } from '../src/composition.ts';
import { createSealedValues, type EncryptedColumn } from '../src/db/index.ts';
import { createLeadSealer } from '../src/leads/index.ts';
import { createFieldEncryption, systemClock } from '../src/shared/index.ts';
import { createTestDatabase } from '../test/test-templates.ts';
import { seedLeads } from '../test/lead-seed.ts';
import { leadSealer } from '../test/lead-store.ts';
import { benchConfig } from './service.ts';

const leadCount = Number(process.env.BENCH_ROTATION_LEADS ?? 100_000);

/** A sealer that seals with the data key itself, as values were sealed before leads had keys of their own. */
function dataKeySealer(key: Buffer) {
  const encryption = createFieldEncryption(key);
  return createLeadSealer({
    forWriting: async () => {},
    forWritingAll: async () => {},
    forReading: async () => {},
    forOnePass: async () => ({ open: (_leadId, sealed, context) => encryption.decrypt(sealed, context) }),
    seal: (_leadId, value, context) => encryption.encrypt(value, context),
    open: (_leadId, sealed, context) => encryption.decrypt(sealed, context),
    isLeadSealed: () => false,
    fingerprint: () => '',
  });
}

async function timed(label: string, values: number, run: () => Promise<unknown>) {
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  ${label.padEnd(52)}${seconds.toFixed(1).padStart(7)} s  ${values} values, ${Math.round(values / seconds)}/s`,
  );
  return seconds;
}

export async function rotationBench(): Promise<void> {
  if (process.env.BENCH_ENGINE === 'pglite') delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const [keyA, keyB] = [randomBytes(32), randomBytes(32)];
  const database = await createTestDatabase();
  const { db } = database;
  try {
    const company = (
      await db.query<{ id: string }>(
        `insert into companies (id, name) values (gen_random_uuid(), 'Bench') returning id`,
      )
    ).rows[0]!.id;
    console.log(`\nrotating the data key over ${leadCount} leads on ${db.engine}`);
    let started = performance.now();
    await seedLeads({ db, sealer: leadSealer(db, keyA) }, company, leadCount);
    console.log(`  seeded with lead keys in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const rotated = await createContainer({
      config: { ...benchConfig(), dataEncryptionPreviousKeys: [keyA] },
      db,
      clock: systemClock,
      signingKey: randomBytes(32),
      encryptionKey: keyB,
      warn: () => {},
    });
    const withLeadKeys = await timed('with lead keys: re-wrap each lead’s key', leadCount, async () => {
      while ((await rotated.keys.reencrypt(10_000)).remaining > 0);
    });
    await rotated.close();

    started = performance.now();
    await db.query('delete from leads');
    await seedLeads({ db, sealer: dataKeySealer(keyA) }, company, leadCount);
    console.log(`  seeded with the data key in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const columns: EncryptedColumn[] = ['phone_enc', 'email_enc', 'person_enc'].map((column) => ({
      table: 'leads',
      id: 'id',
      column,
      context: (id: string) => `lead:${id}:${column}`,
    }));
    const values = createSealedValues(db, columns, createFieldEncryption(keyB, [keyA]));
    const everyValue = await timed('every value under the data key: re-encrypt each', leadCount * 3, async () => {
      while ((await values.reseal(10_000)) > 0);
    });
    console.log(`  ratio (every value / lead keys): ${(everyValue / withLeadKeys).toFixed(1)}×`);
  } finally {
    await database.drop();
  }
}
