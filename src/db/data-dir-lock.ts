/**
 * PGlite takes no lock of its own: two processes on one folder corrupt it. The service holds an
 * exclusive lock file with its PID; a lock left by a dead process is taken over.
 */
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { resolve } from 'node:path';

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

// Lock files this process holds. A file naming our own pid is otherwise taken for a leftover of an
// earlier process that had the same pid (pid 1 in every container), so it cannot tell us that this
// very process already holds the folder.
const heldHere = new Set<string>();

export function lockDataDir(directory: string): DataDirLock {
  mkdirSync(directory, { recursive: true });
  const file = resolve(directory, 'autofin.lock');
  if (heldHere.has(file)) throw new DataDirLockedError(directory, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(file)) {
      heldHere.add(file);
      let released = false;
      return {
        release: () => {
          if (released) return; // a second release must not remove a lock taken since
          released = true;
          heldHere.delete(file);
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
