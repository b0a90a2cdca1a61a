import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { ownTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { loggerOptions } from '../shared/index.ts';
import { queryError, QueryError } from './query-error.ts';

describe('a failed statement carries no parameter values', () => {
  let database: TestDatabase;
  before(async () => {
    database = await ownTestDatabase();
  });
  after(() => database.drop());

  const secret = 'VALOR-SECRETO-5512345678';

  async function failure(sql: string, params: unknown[]): Promise<QueryError> {
    const error = await database.db.query(sql, params).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof QueryError, `a QueryError, got ${String(error)}`);
    return error;
  }

  function logged(error: unknown): string {
    const lines: string[] = [];
    const logger = pino(
      loggerOptions('info'),
      new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }),
    );
    logger.error({ err: error }, 'request failed');
    return lines.join('');
  }

  test('a value the column type refuses: the SQLSTATE and condition stay, the value goes', async () => {
    const error = await failure('select $1::uuid as id', [secret]);
    assert.equal(error.code, '22P02');
    assert.match(error.message, /invalid input syntax for type uuid/);
    assert.ok(!logged(error).includes(secret), logged(error));
  });

  test('a NUL byte in a text parameter', async () => {
    const error = await failure('select length($1::text) as n', [`${secret}\u0000`]);
    assert.ok(!logged(error).includes(secret), logged(error));
    assert.ok(!logged(error).includes('params'), logged(error));
  });

  test('a unique violation does not show the duplicated key', async () => {
    await database.db.query('create table qe_probe (k text primary key)');
    await database.db.query('insert into qe_probe (k) values ($1)', [secret]);
    const error = await failure('insert into qe_probe (k) values ($1)', [secret]);
    assert.equal(error.code, '23505');
    assert.ok(!logged(error).includes(secret), logged(error));
  });
});

test('queryError keeps only the stack frames of the original error', () => {
  const original = Object.assign(new Error('invalid input syntax for type integer: "42abc"'), {
    code: '22P02',
    params: ['42abc'],
    detail: 'x=42abc',
  });
  const wrapped = queryError(original, 'select $1::int');
  assert.equal(wrapped.message, 'invalid input syntax for type integer');
  assert.ok(!String(wrapped.stack).includes('42abc'));
  assert.deepEqual(Object.keys(wrapped).sort(), ['code', 'name', 'statement']);
});
