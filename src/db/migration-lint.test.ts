/**
 * Migrations safe on large tables, checked by a linter made for it (squawk, `.squawk.toml`, run by
 * `npm run lint`): the project's migrations pass, and a migration that would hold a lock blocking writes
 * on a busy table fails the check, naming the rule. Concurrent index builds only appear in migrations
 * marked to run outside a transaction (src/db/migrate.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outsideTransaction, readMigrations } from './migrate.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const squawkBin = join(root, 'node_modules', 'squawk-cli', 'js', 'bin', 'squawk');

function squawk(...paths: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [squawkBin, '--config', join(root, '.squawk.toml'), '--reporter', 'gcc', ...paths],
      { cwd: root },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

test('the project’s migrations pass the lock checks', async () => {
  const { code, output } = await squawk('src/db/migrations/*.sql');
  assert.equal(code, 0, output);
});

test('a migration that would block writes on a busy table fails the check, naming why', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'autofin-migration-lint-'));
  try {
    const cases: [string, string, string][] = [
      ['index', 'create index leads_created_at_idx on leads (created_at);', 'require-concurrent-index-creation'],
      ['volatile', 'alter table leads add column token uuid default gen_random_uuid();', 'adding-field-with-default'],
      [
        'constraint',
        'alter table leads add constraint term_positive check (term > 0);',
        'constraint-missing-not-valid',
      ],
      ['not-null', 'alter table leads alter column company_id set not null;', 'adding-not-nullable-field'],
    ];
    for (const [name, sql, rule] of cases) {
      const file = join(folder, `026_${name}.sql`);
      writeFileSync(file, `${sql}\n`);
      const { code, output } = await squawk(file);
      assert.notEqual(code, 0, `${name} passed: ${output}`);
      assert.match(output, new RegExp(rule), name);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a concurrent index build only appears in a migration that runs outside the transaction', async () => {
  for (const migration of await readMigrations()) {
    const concurrent = /\bindex\s+concurrently\b/i.test(migration.sql.replace(/^\s*--.*$/gm, ''));
    if (concurrent) assert.ok(outsideTransaction(migration), `${migration.name} builds concurrently in a transaction`);
  }
});
