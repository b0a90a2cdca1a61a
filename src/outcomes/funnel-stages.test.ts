/**
 * The funnel's stages as the database counts them (028_funnel_month_stages.sql): its list of verified
 * statuses is the service's, and a database counted in per-status months before that migration keeps
 * every count after it.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isVerified, leadStatuses } from '../lead-status/index.ts';
import { migrate, readMigrations } from '../db/migrate.ts';
import { emptyTestDatabase, sharedTestDatabase, type TestDatabase } from '../../test/test-database.ts';

describe('the funnel’s stages in the database', () => {
  let database: TestDatabase;
  before(async () => {
    database = await sharedTestDatabase();
  });
  after(() => database.drop());

  test('the statuses it counts as verified are the service’s', async () => {
    const { rows } = await database.db.query<{ status: string; verified: boolean }>(
      'select status, funnel_verified(status) as verified from unnest($1::text[]) status',
      [[...leadStatuses]],
    );
    assert.deepEqual(
      rows.map((r) => [r.status, r.verified]),
      leadStatuses.map((s) => [s, isVerified(s)]),
    );
  });
});

test('the per-status months counted before 028 become one row per company and month, with every count', async () => {
  const database = await emptyTestDatabase();
  try {
    const migrations = await readMigrations();
    await migrate(database.db, { migrations: migrations.filter((m) => m.version < 28) });
    const [a, b] = [randomUUID(), randomUUID()];
    await database.db.query(
      `insert into funnel_lead_months (company_id, month, status, leads) values
         ($1, '2026-01-01', 'CREATED', 4), ($1, '2026-01-01', 'VERIFIED', 3),
         ($1, '2026-01-01', 'PREQUALIFIED', 2), ($1, '2026-01-01', 'NOT_PREQUALIFIED', 1),
         ($1, '2026-02-01', 'PIN_SENT', 5), ($2, '2026-01-01', 'IN_PROGRESS', 7)`,
      [a, b],
    );
    await database.db.query(
      `insert into funnel_outcome_months (company_id, month, approved, funded, funded_amount) values
         ($1, '2026-01-01', 2, 1, 240000.50), ($2, '2026-03-01', 0, 0, 0)`,
      [a, b],
    );
    assert.deepEqual(await migrate(database.db, { migrations }), ['funnel_month_stages']);
    const { rows } = await database.db.query<Record<string, unknown>>(
      `select company_id, to_char(month, 'YYYY-MM') as month, created, verified, prequalified, approved, funded,
         funded_amount::text from funnel_months order by company_id = $1 desc, month`,
      [a],
    );
    // company, month, created, verified, pre-qualified, approved, funded, funded amount
    assert.deepEqual(
      rows.map((r) => Object.values(r)),
      [
        [a, '2026-01', 10, 6, 2, 2, 1, '240000.50'],
        [a, '2026-02', 5, 0, 0, 0, 0, '0'],
        [b, '2026-01', 7, 0, 0, 0, 0, '0'],
        [b, '2026-03', 0, 0, 0, 0, 0, '0'],
      ],
    );
  } finally {
    await database.drop();
  }
});
