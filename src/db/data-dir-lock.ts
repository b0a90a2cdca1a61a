/**
 * PGlite takes no lock of its own: two processes on one folder corrupt it. The service holds an
 * exclusive lock file with its PID; a lock left by a dead process is taken over.
 */
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(`The data directory ${directory} is in use by another autofin process (pid ${pid}); refusing to open it.`);
    this.name = 'DataDirLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(file: string): boolean {
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(directory: string): DataDirLock {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, 'autofin.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(file)) {
      return {
        release: () => {
          if (readOwner(file) === process.pid) rmSync(file, { force: true });
        },
      };
    }
    const owner = readOwner(file);
    if (owner !== undefined && owner !== process.pid && alive(owner)) throw new DataDirLockedError(directory, owner);
    rmSync(file, { force: true }); // stale: its process is gone
  }
  throw new DataDirLockedError(directory, readOwner(file) ?? -1);
}

function readOwner(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
