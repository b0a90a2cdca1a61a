/**
 * The retention purge holds the shreds while it runs (src/lead-keys/lead-keys.module.ts): erasures meanwhile
 * rewrite nothing, its end asks for one shred, and a backup or a stop does not wait for it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFieldEncryption, systemClock } from '../shared/index.ts';
import { ownTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { createLeadKeysModule } from './lead-keys.module.ts';

describe('the purge’s hold on the shreds', () => {
  let database: TestDatabase;
  before(async () => {
    database = await ownTestDatabase();
  });
  after(() => database.drop());

  test('held shreds wait for the release, which asks for one; a backup’s or a stop’s shred does not wait', async () => {
    const { db } = database;
    const keys = createLeadKeysModule({
      db,
      clock: systemClock,
      encryption: createFieldEncryption(randomBytes(32)),
      warn: (message, error) => assert.fail(`${message}: ${String(error)}`),
    });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await keys.sealing.forWritingAll(ids);
    const recorded = async () => (await db.query('select partition from lead_key_shreds')).rows.length;
    const erase = (leadId: string) => db.transaction((tx) => keys.destroy(leadId, tx));

    const release = keys.holdShreds();
    await erase(ids[0]);
    keys.shredSoon();
    await sleep(1_500);
    assert.equal(await recorded(), 1, 'a second after the ask, nothing rewritten while held');
    release();
    const deadline = Date.now() + 10_000;
    while ((await recorded()) > 0 && Date.now() < deadline) await sleep(100);
    assert.equal(await recorded(), 0, 'the release asked for a shred, which ran');

    const held = keys.holdShreds();
    await erase(ids[1]);
    await keys.shredAsked();
    assert.equal(await recorded(), 0, 'a backup’s shred runs though the purge holds them');
    held();

    keys.holdShreds();
    await erase(ids[2]);
    await Promise.all(keys.jobs.map((job) => job.stop()));
    assert.equal(await recorded(), 0, 'a stop shreds what a purge still holds');
    const { rows } = await db.query('select lead_id from lead_keys where lead_id = any($1::uuid[])', [ids]);
    assert.deepEqual(rows, []);
  });
});
