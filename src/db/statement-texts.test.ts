/**
 * Statements built anew for each call (as the lead writes build theirs) run as written, including
 * two texts of the same length used in turn: on PostgreSQL they are named prepared statements
 * found by their text (postgres-db.ts), so a text taken for another would run the wrong statement.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedTestDatabase } from '../../test/test-database.ts';

test('statements built anew each call, two of them of one length, each run as written', async () => {
  const database = await sharedTestDatabase();
  try {
    const { db } = database;
    const built = (column: 'a' | 'b', value: number) =>
      ['select', `$1::int + ${value} as ${column}`, `, '${column}' as`, 'label'].join(' ');
    assert.equal(built('a', 1).length, built('b', 2).length, 'the two shapes have one length');
    for (let i = 0; i < 6; i++) {
      const column = i % 2 === 0 ? 'a' : 'b';
      const value = i % 2 === 0 ? 1 : 2;
      const { rows } = await db.query<Record<string, unknown>>(built(column, value), [i]);
      assert.deepEqual(rows, [{ [column]: i + value, label: column }], `call ${i}`);
    }
  } finally {
    await database.drop();
  }
});
