/**
 * `autofin backup --out FILE` (saves `GET /admin/backup` of a running service, with a progress bar on a
 * terminal) and `autofin restore FILE` (loads such a file into an empty DATA_DIR, with the service stopped).
 * docs/operations.md, "Backups".
 */
import {
  closeSync,
  constants,
  createWriteStream,
  existsSync,
  linkSync,
  openAsBlob,
  openSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { RestoreRefusedError, restoreDataDir } from '../db/index.ts';
import { defaultUrl, usage } from './cli-args.ts';
import type { CliIo } from './cli-io.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function usageError(io: CliIo, message: string): number {
  io.stderr(`autofin: ${message}\n\n${usage}\n`);
  return 2;
}

/** `[#####     ]  48%  12.0 of 25.1 MB`, redrawn in place on a terminal. */
export function progressLine(done: number, total: number | undefined): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  if (!total) return `\r${mb(done)} MB`;
  const share = Math.min(1, done / total);
  const filled = Math.round(share * 30);
  const percent = String(Math.round(share * 100)).padStart(3);
  return `\r[${'#'.repeat(filled)}${' '.repeat(30 - filled)}] ${percent}%  ${mb(done)} of ${mb(total)} MB`;
}

/**
 * The file a backup is written to until it is whole, created here and nowhere else: never through a link
 * left at its name, never over a file that is there, readable by its owner only.
 */
function createPartial(partial: string, io: CliIo): number | undefined {
  try {
    return openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    const message =
      reason === 'EEXIST' || reason === 'ELOOP'
        ? `${partial} exists: another backup may be writing it, or one was interrupted; remove it and try again`
        : `cannot write ${partial}`;
    io.stderr(json({ message, reason }));
    return undefined;
  }
}

/** Fails the backup: the partial file is removed, and the reason printed. */
function failed(file: WriteStream, partial: string, io: CliIo, error: object): number {
  file.destroy();
  rmSync(partial, { force: true });
  io.stderr(json(error));
  return 1;
}

async function backup(out: string, url: string, token: string, io: CliIo): Promise<number> {
  if (existsSync(out)) {
    io.stderr(json({ message: `${out} exists: choose another file (a backup never overwrites one)` }));
    return 1;
  }
  // Written beside the target and moved there once whole: an interrupted backup never looks like a complete one.
  const partial = `${out}.partial`;
  const fd = createPartial(partial, io);
  if (fd === undefined) return 1;
  const file = createWriteStream('', { fd });
  let response: Response;
  try {
    response = await (io.fetch ?? fetch)(`${url}/admin/backup`, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return failed(file, partial, io, {
      message: `cannot reach ${url}`,
      reason: cause?.code ?? (error as Error).message,
    });
  }
  if (!response.ok || !response.body) {
    const text = await response.text();
    file.destroy();
    rmSync(partial, { force: true });
    io.stderr(text.startsWith('{') ? `${text}\n` : json({ status: response.status, body: text.slice(0, 2000) }));
    return 1;
  }
  const total = Number(response.headers.get('content-length')) || undefined;
  let done = 0;
  let drawn = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      done += chunk.length;
      if (!file.write(chunk)) await once(file, 'drain');
      if (io.stderrIsTerminal && Date.now() - drawn > 100) {
        io.stderr(progressLine(done, total));
        drawn = Date.now();
      }
    }
    file.end();
    await once(file, 'finish');
  } catch (error) {
    return failed(file, partial, io, { message: 'the backup was interrupted', reason: (error as Error).message });
  }
  if (total !== undefined && done !== total) {
    return failed(file, partial, io, { message: `the backup was cut short: ${done} of ${total} bytes` });
  }
  // A link fails when the target appeared meanwhile, where a rename would replace it.
  try {
    linkSync(partial, out);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return failed(file, partial, io, {
      message: `${out} exists: choose another file (a backup never overwrites one)`,
      reason,
    });
  }
  rmSync(partial, { force: true });
  if (io.stderrIsTerminal) io.stderr(`${progressLine(done, total)}\n`);
  io.stdout(json({ file: out, bytes: done }));
  return 0;
}

async function restore(file: string, dataDir: string, io: CliIo): Promise<number> {
  let data: Blob;
  try {
    // openAsBlob names a missing file only as an invalid argument: open it first for the real reason.
    closeSync(openSync(file, 'r'));
    data = await openAsBlob(file);
  } catch (error) {
    io.stderr(json({ message: `cannot read ${file}`, reason: (error as NodeJS.ErrnoException).code ?? String(error) }));
    return 1;
  }
  try {
    const restored = await restoreDataDir(dataDir, data);
    io.stdout(json({ ...restored, bytes: data.size }));
    return 0;
  } catch (error) {
    if (!(error instanceof RestoreRefusedError)) throw error;
    io.stderr(json({ message: error.message }));
    return 1;
  }
}

/** `autofin backup …` and `autofin restore …`: answers the exit status (0 done, 1 refused or failed, 2 usage). */
export async function runBackupCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        out: { type: 'string' },
        url: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  const [name, ...args] = positionals;
  if (name === 'backup') {
    if (args.length > 0 || values['data-dir'] !== undefined) {
      return usageError(io, 'backup takes only --out FILE and --url URL');
    }
    if (typeof values.out !== 'string' || values.out === '') return usageError(io, '--out is required');
    const token = env.AUTOFIN_OPERATOR_KEY || env.ADMIN_TOKEN;
    if (!token) {
      return usageError(io, 'ADMIN_TOKEN is not set: export the admin token of the service (or AUTOFIN_OPERATOR_KEY)');
    }
    const url = ((values.url as string | undefined) ?? (env.AUTOFIN_URL || defaultUrl)).replace(/\/+$/, '');
    return backup(values.out, url, token, io);
  }
  if (args.length !== 1 || values.out !== undefined || values.url !== undefined) {
    return usageError(io, 'restore takes FILE and, optionally, --data-dir DIR');
  }
  const dataDir = (values['data-dir'] as string | undefined) ?? (env.DATA_DIR || './data');
  return restore(args[0], dataDir, io);
}
