import { test } from 'node:test';
import assert from 'node:assert/strict';
import { operation, operationTable } from './operation.ts';

const table = operationTable({
  getThing: { summary: 'Read a thing', description: 'The thing, ' + 'whole.' },
  listThings: { summary: 'List things' },
});

test('an operation gives its id, summary and description to the route schema', () => {
  assert.deepEqual(operation(table, 'getThing'), {
    operationId: 'getThing',
    summary: 'Read a thing',
    description: 'The thing, whole.',
  });
});

test('an operation without a description gives none, and its id can be written under another name', () => {
  const fields = operation(table, 'listThings', 'adminListThings');
  assert.deepEqual(fields, { operationId: 'adminListThings', summary: 'List things' });
  assert.equal('description' in fields, false);
});
