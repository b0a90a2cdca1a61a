import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, csvHeader, exportColumns } from './lead-export.ts';

test('CSV cells are quoted when needed and never start a formula', () => {
  const cases: [string | number | null, string][] = [
    [null, ''],
    [12.5, '12.5'],
    ['Roma Norte', 'Roma Norte'],
    ['Av. 5, Int "B"', '"Av. 5, Int ""B"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+5215512345678', "'+5215512345678"],
    ['@SUM(A1)', "'@SUM(A1)"],
    [";=cmd|' /C calc'!A0", "';=cmd|' /C calc'!A0"],
    [';;+1', "';;+1"],
    [' =1+1', "' =1+1"],
    [',-2', `"',-2"`],
    ['|@x', "'|@x"],
    ['Roma; Norte', 'Roma; Norte'],
  ];
  for (const [value, expected] of cases) assert.equal(csvCell(value), expected, String(value));
});

test('the CSV header names every column once', () => {
  assert.equal(csvHeader, `${exportColumns.join(',')}\r\n`);
  assert.equal(new Set(exportColumns).size, exportColumns.length);
});
