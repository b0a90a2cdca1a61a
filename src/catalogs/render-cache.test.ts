import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Representation } from './render-cache.ts';
import { RenderCache, RenderSlot } from './render-cache.ts';

const body = (text: string): Representation => ({
  contentType: 'text/plain',
  body: text,
  byteLength: Buffer.byteLength(text),
  etag: '"e"',
});

test('a slot is rendered once, then answered from the cache', () => {
  const cache = new RenderCache(1_000);
  const slot = new RenderSlot();
  let renders = 0;
  const render = () => (renders++, body('hello'));
  const first = cache.get(slot, render);
  assert.equal(cache.get(slot, render), first);
  assert.equal(renders, 1);
  assert.equal(cache.bytes, 5 + 3);
  assert.equal(cache.count, 1);
});

test('past the budget the least recently used bodies are dropped, and rendered again when asked', () => {
  const cache = new RenderCache(30); // three bodies of 10 bytes (7 + the ETag's 3)
  const slots = [new RenderSlot(), new RenderSlot(), new RenderSlot(), new RenderSlot()];
  const renders = [0, 0, 0, 0];
  const get = (i: number) => cache.get(slots[i], () => (renders[i]++, body(`body-${i}`.padEnd(7))));
  get(0);
  get(1);
  get(2);
  get(0); // 1 is now the least recently used
  get(3);
  assert.equal(cache.count, 3);
  assert.equal(cache.bytes, 30);
  assert.equal(slots[1].value, undefined);
  get(0);
  get(2);
  get(3);
  assert.deepEqual(renders, [1, 1, 1, 1], 'the three kept bodies were not rendered again');
  assert.equal(get(1).body.toString(), 'body-1 ');
  assert.deepEqual(renders, [1, 2, 1, 1]);
  assert.ok(cache.bytes <= 30);
});

test('a body larger than the whole budget is answered and held alone', () => {
  const cache = new RenderCache(10);
  const small = new RenderSlot();
  const large = new RenderSlot();
  cache.get(small, () => body('a'));
  assert.equal(cache.get(large, () => body('x'.repeat(50))).body.length, 50);
  assert.equal(cache.count, 1);
  assert.equal(small.value, undefined);
});

test('clear drops every body', () => {
  const cache = new RenderCache(1_000);
  const slot = new RenderSlot();
  cache.get(slot, () => body('abc'));
  cache.clear();
  assert.equal(cache.count, 0);
  assert.equal(cache.bytes, 0);
  assert.equal(slot.value, undefined);
});
