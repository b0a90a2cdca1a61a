/**
 * The status rules also exist as SQL (a section save is one statement): both forms must agree for
 * every status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedTestDatabase } from '../../test/test-database.ts';
import { afterSectionSaved, isVerified, leadStatuses, sql } from './lead-status.ts';

test('the SQL form of the status rules answers as the TypeScript one for every status', async () => {
  const { db, drop } = await sharedTestDatabase();
  try {
    const values = leadStatuses.map((s) => `('${s}')`).join(', ');
    const { rows } = await db.query<{ status: string; saved: string; verified: boolean }>(
      `select status, ${sql.afterSectionSaved} as saved,
        ${sql.isVerified} as verified from (values ${values}) t(status)`,
    );
    assert.equal(rows.length, leadStatuses.length);
    for (const row of rows) {
      const status = row.status as (typeof leadStatuses)[number];
      assert.equal(row.saved, afterSectionSaved(status), status);
      assert.equal(row.verified, isVerified(status), status);
    }
  } finally {
    await drop();
  }
});
