/**
 * A transaction's COPY (`copyCsv`), on the engine of the run: what it stores is what the CSV says,
 * byte for byte, and a COPY that fails takes the transaction's other writes with it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';

let database: TestDatabase;
describe('copyCsv', () => {
  before(async () => {
    database = await createTestDatabase();
    await database.db.query('create table copy_probe (id integer primary key, name text not null, note text not null)');
  });
  after(() => database.drop());

  const rows = async () =>
    (
      await database.db.query<{ id: number; name: string; note: string }>(
        'select id, name, note from copy_probe order by id',
      )
    ).rows;

  test('copyCsv stores quoted text as written: quotes, commas, braces, backslashes, accents, empty text', async () => {
    const csv = [
      '1,"Ñandú ""el grande"", S.A.","{a,b}"',
      '2,"C:\\ruta\\archivo",""',
      '3,"  espacios  ","\\."',
      '',
    ].join('\n');
    await database.db.transaction((tx) => tx.copyCsv('copy_probe', ['id', 'name', 'note'], csv));
    assert.deepEqual(await rows(), [
      { id: 1, name: 'Ñandú "el grande", S.A.', note: '{a,b}' },
      { id: 2, name: 'C:\\ruta\\archivo', note: '' },
      { id: 3, name: '  espacios  ', note: '\\.' },
    ]);
  });

  test('a COPY that fails rolls back the whole transaction, the writes before it included', async () => {
    const before = await rows();
    await assert.rejects(
      database.db.transaction(async (tx) => {
        await tx.query('delete from copy_probe');
        await tx.copyCsv('copy_probe', ['id', 'name', 'note'], '10,"a","b"\n10,"repeated","key"\n');
      }),
      /duplicate key/,
    );
    assert.deepEqual(await rows(), before);
  });
});
