/**
 * Every table is written by one module only (docs/architecture.md, "Tables and their owners"): the
 * SQL writes found in the sources must come from the folder the map names for their table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectFile } from '../shared/index.ts';

const root = fileURLToPath(projectFile('./'));
const src = fileURLToPath(projectFile('src/'));

/**
 * Files allowed to write tables they do not own, because the table is named only at run time and
 * the owner hands it over (each with its reason). Keep this short.
 */
const exceptions: Record<string, string> = {
  'src/db/sealed-values.ts': 're-encrypts the encrypted columns each owner declares (key rotation)',
  'src/lead-keys/lead-key-migration.ts': "moves the leads' sealed columns each owner declares to the leads' keys",
  'src/db/pglite-db.ts': 'the generic COPY of copyCsv, for the table its caller names',
  'src/db/postgres-db.ts': 'the generic COPY of copyCsv, for the table its caller names',
  'src/tracing/traced-db.ts': 'names the COPY of copyCsv in a span, for the table its caller names',
  'src/catalogs/catalogs.repository.ts': 'replaces its own catalog tables, named by a variable',
};

/** The map of docs/architecture.md: table → owning folder. */
function owners(): Map<string, string> {
  const doc = readFileSync(projectFile('docs/architecture.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Tables and their owners'));
  assert.ok(section, 'docs/architecture.md has a section "Tables and their owners"');
  const map = new Map<string, string>();
  for (const [, table, owner] of section.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*`([a-z/_-]+)`[^|\n]*\|/gm)) {
    assert.ok(!map.has(table!), `${table} is listed once`);
    map.set(table!, owner!);
  }
  return map;
}

/** The tables the migrations leave: every one created, but those a later migration dropped. */
function migrationTables(): string[] {
  const folder = projectFile('src/db/migrations/');
  const texts = readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => readFileSync(new URL(name, folder), 'utf8'));
  const created = texts.flatMap((text) => [...text.matchAll(/create table (?:if not exists )?([a-z_]+)/gi)]);
  const dropped = new Set(
    texts
      .flatMap((text) => [...text.matchAll(/drop table (?:if exists )?([a-z_, ]+)/gi)])
      .flatMap((m) => m[1]!.split(',').map((name) => name.trim().toLowerCase())),
  );
  return created.map((m) => m[1]!.toLowerCase()).filter((table) => !dropped.has(table));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The target of every SQL write in `text`: a table name, or `${…}` when the name is built at run time. */
function writeTargets(text: string): string[] {
  const write = /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|copy)\s+(\$\{|[a-z_][a-z0-9_]*)/gi;
  return [...text.matchAll(write)].map((m) => m[1]!.toLowerCase());
}

test('the write finder sees every kind of write, in any case and in template strings', () => {
  const found = writeTargets(
    "q('INSERT INTO leads'); `update lead_pins set`; 'Delete From pin_sends'; " +
      '`truncate table x`; `copy ${t} (a) from stdin`',
  );
  assert.deepEqual(found, ['leads', 'lead_pins', 'pin_sends', 'x', '${']);
});

test('every table of the migrations has one owner', () => {
  const map = owners();
  const tables = migrationTables();
  assert.ok(tables.length > 0);
  const missing = tables.filter((t) => !map.has(t));
  assert.deepEqual(missing, [], 'tables without an owner in docs/architecture.md');
});

test('each table is written only from its owning folder', () => {
  const map = owners();
  const offences: string[] = [];
  for (const file of sources(src.replace(/\/$/, ''))) {
    const path = relative(root, file);
    if (path in exceptions) continue;
    for (const target of writeTargets(readFileSync(file, 'utf8'))) {
      if (target === '${') {
        offences.push(`${path} writes a table named at run time`);
        continue;
      }
      const owner = map.get(target);
      // Words after UPDATE that are no table (`for update skip locked`, prose) are not writes.
      if (owner && !path.startsWith(`${owner}/`)) offences.push(`${path} writes ${target}, owned by ${owner}`);
    }
  }
  assert.deepEqual(offences, []);
});

test('no module exports a repository: each offers what it does through its factory', () => {
  const offences: string[] = [];
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let text: string;
    try {
      text = readFileSync(`${src}${entry.name}/index.ts`, 'utf8');
    } catch {
      continue;
    }
    const exported = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap(([, names]) =>
      names!.split(',').map((name) =>
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .replace(/^type\s+/, ''),
      ),
    );
    const declared = [
      ...text.matchAll(/^export\s+(?:async\s+)?(?:function|const|let|interface|type|class)\s+([A-Za-z0-9_$]+)/gm),
    ].map(([, name]) => name!);
    for (const name of [...exported, ...declared]) {
      if (/Repository/.test(name)) offences.push(`src/${entry.name}/index.ts exports ${name}`);
    }
  }
  assert.deepEqual(offences, []);
});
