import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { requestIdOf } from './request-id.ts';

const withHeader = (value?: string | string[]) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as IncomingMessage;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('a safe X-Request-Id is kept as the request id', () => {
  assert.equal(requestIdOf(withHeader('dealer-42.a_B')), 'dealer-42.a_B');
  assert.equal(requestIdOf(withHeader('x'.repeat(64))), 'x'.repeat(64));
});

test('a missing, empty, too long, repeated or unsafe X-Request-Id is replaced by a new UUID', () => {
  for (const value of [undefined, '', 'x'.repeat(65), ['a', 'b'], 'has space', 'line\nbreak', 'ünï']) {
    assert.match(requestIdOf(withHeader(value)), uuid, JSON.stringify(value));
  }
  assert.notEqual(requestIdOf(withHeader()), requestIdOf(withHeader()));
});
