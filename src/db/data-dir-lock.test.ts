import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-lock-'));
  dirs.push(dir);
  return dir;
}
const lockFile = (dir: string) => join(dir, 'autofin.lock');

function lockedErrorOf(fn: () => unknown): DataDirLockedError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DataDirLockedError, `expected DataDirLockedError, got ${String(error)}`);
    return error;
  }
  assert.fail('the second lock was granted');
}

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.ok(child.pid && child.pid > 0);
  return child.pid;
}

/** Another process holding the lock of `dir`, as a second autofin started on the same folder would. */
async function holderProcess(dir: string): Promise<ChildProcess> {
  const moduleUrl = new URL('./data-dir-lock.ts', import.meta.url).href;
  const code =
    `const { lockDataDir } = await import(${JSON.stringify(moduleUrl)}); lockDataDir(process.env.LOCK_DIR); ` +
    `console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    env: { ...process.env, LOCK_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  assert.match(String(chunk), /locked/);
  return child;
}

describe('data directory lock', () => {
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  takingTests();
  releaseTests();
});

/** Taking the lock, and taking over a stale one. */
function takingTests(): void {
  test('the lock file holds the pid of the process that took it', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(process.pid));
    lock.release();
  });

  test('a second lock on the same folder in this process is refused, naming this pid', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    const error = lockedErrorOf(() => lockDataDir(dir));
    assert.equal(error.pid, process.pid);
    assert.match(error.message, new RegExp(`pid ${process.pid}`));
    assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(process.pid), 'the first lock is intact');
    lock.release();
  });

  test('a lock held by another live process is refused, naming its pid and the folder', async () => {
    const dir = freshDir();
    const holder = await holderProcess(dir);
    try {
      const error = lockedErrorOf(() => lockDataDir(dir));
      assert.equal(error.pid, holder.pid);
      assert.equal(error.directory, dir);
      assert.match(error.message, new RegExp(`pid ${holder.pid}`));
      assert.ok(error.message.includes(dir), error.message);
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    }
    // Killed with -9, it left its lock file behind: that lock is stale now and is taken over.
    assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(holder.pid));
    const lock = lockDataDir(dir);
    assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(process.pid));
    lock.release();
  });

  test('a stale lock file of a dead pid is taken over', () => {
    const dir = freshDir();
    writeFileSync(lockFile(dir), String(deadPid()));
    const lock = lockDataDir(dir);
    assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(process.pid));
    lock.release();
  });

  test('a lock file with no readable pid is taken over', () => {
    for (const content of ['', 'not-a-pid', '-4', '0']) {
      const dir = freshDir();
      writeFileSync(lockFile(dir), content);
      const lock = lockDataDir(dir);
      assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(process.pid), `content "${content}"`);
      lock.release();
    }
  });

  test('a lock file left with this pid by an earlier process (pid reuse after a crash) is taken over', () => {
    const dir = freshDir();
    writeFileSync(lockFile(dir), String(process.pid));
    const lock = lockDataDir(dir);
    assert.ok(existsSync(lockFile(dir)));
    lock.release();
  });
}

/** Releasing the lock, and what it leaves alone. */
function releaseTests(): void {
  test('release removes the lock file and the folder can be locked again', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    lock.release();
    assert.equal(existsSync(lockFile(dir)), false);
    const again = lockDataDir(dir);
    assert.ok(existsSync(lockFile(dir)));
    again.release();
  });

  test('releasing twice does not remove a lock taken since', () => {
    const dir = freshDir();
    const first = lockDataDir(dir);
    first.release();
    const second = lockDataDir(dir);
    first.release();
    assert.ok(existsSync(lockFile(dir)), 'the second lock is still held');
    lockedErrorOf(() => lockDataDir(dir));
    second.release();
    assert.equal(existsSync(lockFile(dir)), false);
  });

  test('release leaves alone a lock file another process wrote meanwhile', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    const other = deadPid();
    writeFileSync(lockFile(dir), String(other));
    lock.release();
    assert.equal(readFileSync(lockFile(dir), 'utf8').trim(), String(other));
  });

  test('the folder is created when missing', () => {
    const dir = join(freshDir(), 'nested', 'data');
    const lock = lockDataDir(dir);
    assert.ok(existsSync(lockFile(dir)));
    lock.release();
  });
}
