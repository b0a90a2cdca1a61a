import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFieldEncryption } from '../shared/index.ts';
import { sharedTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { createLeadKeys, LeadKeyMissing } from './lead-keys.ts';

describe('lead keys in memory', () => {
  let database: TestDatabase;
  before(async () => {
    database = await sharedTestDatabase();
  });
  after(() => database.drop());

  /** Leads with keys and one sealed value each, written as the service writes them. */
  async function sealedLeads(count: number) {
    const { db } = database;
    const encryption = createFieldEncryption(randomBytes(32));
    const writer = createLeadKeys({ db, encryption, now: () => Date.now() }).sealing;
    const ids = Array.from({ length: count }, () => randomUUID());
    await writer.forWritingAll(ids);
    const sealed = new Map(ids.map((id) => [id, writer.seal(id, `valor de ${id}`, `lead:${id}:email_enc`)]));
    return { db, encryption, ids, sealed };
  }

  test('a read’s keys all stay in memory when it fills memory, those it held before included', async () => {
    const { db, encryption, ids, sealed } = await sealedLeads(6);
    const [a, b, c, d, x, y] = ids;
    // Memory for four keys: a and b are read first, then x and y fill it.
    const reader = createLeadKeys({ db, encryption, now: () => Date.now(), maxCached: 4 }).sealing;
    await reader.forReading([a, b]);
    await reader.forReading([x, y]);
    // A batch of a, b (held, the oldest in memory) and c, d (read now): loading c and d pushes out x and y.
    await reader.forReading([a, b, c, d]);
    for (const id of [a, b, c, d]) {
      assert.equal(reader.open(id, sealed.get(id)!, `lead:${id}:email_enc`), `valor de ${id}`);
    }
    assert.throws(() => reader.open(x, sealed.get(x)!, `lead:${x}:email_enc`), LeadKeyMissing);
  });

  test('a one-pass read opens its leads without keeping their keys or pushing out those held', async () => {
    const { db, encryption, ids, sealed } = await sealedLeads(6);
    const [a, b, c, d, e, f] = ids;
    const open = (o: { open<T>(id: string, s: string, c: string): T }, id: (typeof ids)[number]) =>
      o.open<string>(id, sealed.get(id)!, `lead:${id}:email_enc`);
    const reader = createLeadKeys({ db, encryption, now: () => Date.now(), maxCached: 2 }).sealing;
    await reader.forReading([a, b]);
    // More leads than memory holds, a held one among them: each opens through the pass.
    const pass = await reader.forOnePass([b, c, d, e, f]);
    for (const id of [b, c, d, e, f]) assert.equal(open(pass, id), `valor de ${id}`);
    // The keys held before are still there; the pass's others were never kept.
    for (const id of [a, b]) assert.equal(open(reader, id), `valor de ${id}`);
    for (const id of [c, d, e, f]) assert.throws(() => open(reader, id), LeadKeyMissing);
    // A lead outside the pass does not open through it, even with its key in memory.
    assert.throws(() => open(pass, a), LeadKeyMissing);
  });
});
