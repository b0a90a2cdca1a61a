import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { askHidden } from './terminal-input.ts';

/** A terminal's stdin: records raw mode, and delivers what the test "types". */
class FakeTerminal extends EventEmitter {
  raw: boolean[] = [];
  paused = false;
  setRawMode(raw: boolean) {
    this.raw.push(raw);
  }
  setEncoding() {}
  resume() {
    this.paused = false;
  }
  pause() {
    this.paused = true;
  }
  type(text: string) {
    this.emit('data', text);
  }
}

test('the prompt reads one line in raw mode and writes only the question and a line break', async () => {
  const terminal = new FakeTerminal();
  const written: string[] = [];
  const answer = askHidden('Password: ', terminal, (text) => written.push(text));
  terminal.type('secr');
  terminal.type('eto largo\r');
  assert.equal(await answer, 'secreto largo');
  assert.deepEqual(written, ['Password: ', '\n']);
  assert.deepEqual(terminal.raw, [true, false], 'raw mode is switched off again');
  assert.equal(terminal.paused, true);
  assert.equal(terminal.listenerCount('data'), 0);
});

test('Backspace erases the last character; control characters are ignored', async () => {
  const terminal = new FakeTerminal();
  const answer = askHidden('Password: ', terminal, () => {});
  terminal.type('abcx\u007fd\u001be\bf\n');
  assert.equal(await answer, 'abcdf');
});

test('Ctrl-C cancels; Enter at once answers the empty string', async () => {
  const cancelled = new FakeTerminal();
  const first = askHidden('Password: ', cancelled, () => {});
  cancelled.type('abc\u0003');
  assert.equal(await first, undefined);
  assert.deepEqual(cancelled.raw, [true, false]);

  const empty = new FakeTerminal();
  const second = askHidden('Password: ', empty, () => {});
  empty.type('\r');
  assert.equal(await second, '');
});
