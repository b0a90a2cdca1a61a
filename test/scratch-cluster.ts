/**
 * A throwaway PostgreSQL cluster for tests and experiments: `initdb` into a new temporary folder, started
 * with `pg_ctl` on a free port of 127.0.0.1 (its socket in the same folder), trust authentication, and
 * removed with its files by `stop()`. It runs as the `postgres` OS user when this process is root, since
 * initdb and postgres refuse root. The server binaries (and pg_dump, for `dump()`) are taken from `PG_BIN`
 * when set, else from the newest /usr/lib/postgresql/<version>/bin, else from the PATH.
 *
 * `settings` are written to the cluster's postgresql.conf before it starts (no shell quoting to get wrong,
 * and `ALTER SYSTEM` plus `pg_reload_conf()` can still change them, which a `-c` on the command line forbids).
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes/free-port.ts';

const run = promisify(execFile);

export interface ScratchCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, no password. */
  url: string;
  /** The cluster's data directory (PGDATA). */
  dataDir: string;
  /**
   * A `pg_dump` of the `postgres` database in plain format (SQL text: the custom format compresses, which a byte
   * scan cannot read), written to `file` by this process (not as `postgres`, which may not write in its folders).
   */
  dump(file: string): Promise<void>;
  /** Stops the server (fast shutdown) and removes its folder. A second call does nothing. */
  stop(): Promise<void>;
}

export interface ScratchClusterOptions {
  /** postgresql.conf settings, e.g. `{ wal_recycle: 'off', min_wal_size: '32MB' }`. */
  settings?: Record<string, string>;
}

/** Clusters started and not yet stopped, by folder: a process that ends without stopping them still does. */
const running = new Map<string, () => void>();
let exitHook = false;

function ensureExitHook(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const stopNow of running.values()) stopNow();
  });
}

/** The folder of initdb and pg_ctl. */
function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return '';
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : '';
}

/** The user the server runs as: `postgres` (uid, gid) when this process is root, else this process's own. */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The command line of a server binary: through `runuser -u postgres --` when `asPostgres`. */
function commandLine(bin: string, args: string[], asPostgres: boolean): [string, string[]] {
  return asPostgres ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/** Runs a server binary (as `postgres` when `asPostgres`); its output is in the error it throws. */
async function runPg(bin: string, args: string[], cwd: string, asPostgres: boolean, timeoutMs = 60_000) {
  const [file, argv] = commandLine(bin, args, asPostgres);
  try {
    return await run(file, argv, { cwd, timeout: timeoutMs, env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' } });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${bin} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, {
      cause: error,
    });
  }
}

/** A postgresql.conf line, the value quoted as the file reads it. */
function confLine(name: string, value: string): string {
  if (!/^[a-z_][a-z0-9_.]*$/i.test(name)) throw new Error(`not a setting name: ${name}`);
  return `${name} = '${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'\n`;
}

/** The end of the server's log, for an error that says why it did not start. */
function logTail(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

/** Starts the initialized cluster on a free port, trying another port when the chosen one was taken meanwhile. */
async function startOnFreePort(pgCtl: string, root: string, dataDir: string, asPostgres: boolean): Promise<number> {
  const logFile = join(root, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const options = `-p ${port} -k '${root}' -c listen_addresses=127.0.0.1`; // pg_ctl hands it to a shell
    try {
      await runPg(
        pgCtl,
        ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', options],
        root,
        asPostgres,
        90_000,
      );
      return port;
    } catch (error) {
      const log = logTail(logFile);
      if (attempt < 3 && /could not (bind|create listen)|Address already in use/i.test(log)) continue;
      throw new Error(`${(error as Error).message}\n--- server.log ---\n${log}`, { cause: error });
    }
  }
}

interface Layout {
  root: string;
  dataDir: string;
  asPostgres: boolean;
  pgCtl: string;
}

/** `pg_ctl stop`'s arguments when a server runs there (one pg_ctl gave up waiting on has its postmaster.pid too). */
function stopArgs(layout: Layout, mode: 'fast' | 'immediate'): string[] | undefined {
  if (!existsSync(join(layout.dataDir, 'postmaster.pid'))) return undefined;
  return ['stop', '-D', layout.dataDir, '-m', mode, '-w', '-t', '60'];
}

/** The cluster's `stop()`: fast shutdown, then its folder removed; at the process's exit, an immediate one. */
function stopper(layout: Layout): () => Promise<void> {
  let stopped = false;
  running.set(layout.root, () => {
    const args = stopArgs(layout, 'immediate');
    try {
      const [file, argv] = commandLine(layout.pgCtl, args ?? [], layout.asPostgres);
      if (args) execFileSync(file, argv, { cwd: layout.root, stdio: 'ignore', timeout: 30_000 });
    } catch {
      // the process is ending: the folder is removed all the same
    }
    rmSync(layout.root, { recursive: true, force: true });
  });
  ensureExitHook();
  return async () => {
    if (stopped) return;
    stopped = true;
    running.delete(layout.root);
    try {
      const args = stopArgs(layout, 'fast');
      if (args) await runPg(layout.pgCtl, args, layout.root, layout.asPostgres);
    } finally {
      rmSync(layout.root, { recursive: true, force: true });
    }
  };
}

/** Creates and starts a scratch cluster (see the top of this file). */
export async function startScratchCluster(options: ScratchClusterOptions = {}): Promise<ScratchCluster> {
  const conf = Object.entries(options.settings ?? {})
    .map(([name, value]) => confLine(name, value))
    .join('');
  const bin = binDir();
  const tool = (name: string) => (bin ? join(bin, name) : name);
  const user = await serverUser();
  const root = mkdtempSync(join(tmpdir(), 'scratch-pg-'));
  const layout: Layout = { root, dataDir: join(root, 'data'), asPostgres: user !== undefined, pgCtl: tool('pg_ctl') };
  const { dataDir, asPostgres } = layout;
  const stop = stopper(layout);
  try {
    chmodSync(root, 0o700);
    if (user) chownSync(root, user.uid, user.gid);
    const initdb = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'];
    await runPg(tool('initdb'), [...initdb, '--no-instructions'], root, asPostgres);
    if (conf) appendFileSync(join(dataDir, 'postgresql.conf'), `\n# scratch-cluster settings\n${conf}`);
    const port = await startOnFreePort(layout.pgCtl, root, dataDir, asPostgres);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const dump = async (file: string) => {
      await runPg(tool('pg_dump'), ['--format=plain', `--file=${file}`, `--dbname=${url}`], root, false);
    };
    return { url, dataDir, dump, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
