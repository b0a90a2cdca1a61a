/** The server engine: PostgreSQL through a `pg` pool, optionally confined to one schema. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { Db, Queryable, QueryResult, Transaction } from './database.ts';
import { queryError } from './query-error.ts';

export interface PostgresOptions {
  /** Every connection uses this schema first (tests give each file its own). */
  schema?: string;
  max?: number;
}

/**
 * Queries the service runs again and again (DML) become named prepared statements, so PostgreSQL
 * parses and plans each once per connection. The name is a hash of the text.
 */
const statementNames = new Map<string, string | null>();
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = /^\s*(select|insert|update|delete|with)\b/i.test(sql)
      ? `af_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`
      : null;
    if (statementNames.size < 10_000) statementNames.set(sql, name);
  }
  return name ?? undefined;
}

interface Statement {
  text: string;
  name: string | undefined;
}

/**
 * The statement to send for a text. The statements that change leads are built anew for each
 * request: a new string with a known text. A Map lookup of a new string first hashes it, a character
 * at a time (2–3 µs for these texts); comparing it with the last text of its length is a copy and a
 * memory compare. Two texts of one length replace each other and are looked up by name as before.
 */
const lastOfLength = new Map<number, Statement>();
function statementFor(sql: string): Statement {
  const last = lastOfLength.get(sql.length);
  if (last?.text === sql) return last;
  const statement = { text: sql, name: statementName(sql) };
  if (last !== undefined || lastOfLength.size < 10_000) lastOfLength.set(sql.length, statement);
  return statement;
}

function wrap(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      try {
        const { name, text } = statementFor(sql);
        const result = await target.query({ name, text, values: params });
        return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
      } catch (error) {
        throw queryError(error, sql);
      }
    },
  };
}

function transactionOf(client: pg.PoolClient): Transaction {
  return {
    ...wrap(client),
    async copyCsv(table, columns, csv) {
      const sql = `copy ${table} (${columns.join(', ')}) from stdin with (format csv)`;
      // Imported at the first copy (a catalog import): a start that imports none never loads it. CommonJS:
      // its exports are under `default`, bundled (a chunk of its own) as from the sources.
      const { from: copyFrom } = (await import('pg-copy-streams')).default;
      try {
        await pipeline(Readable.from([csv]), client.query(copyFrom(sql)));
      } catch (error) {
        throw queryError(error, sql);
      }
    },
  };
}

const channelName = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A connection of its own LISTENing on `channel` (a pooled one would be handed to other queries).
 * A dropped connection is opened again, after 0.1 s and then up to 5 s apart; once it listens
 * again `onNotify` is called, for whatever was announced meanwhile.
 */
async function listenOn(url: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  if (!channelName.test(channel)) throw new Error('channel name must be a lowercase identifier');
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  let delayMs = 100;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: `autofin-listen-${channel}` });
    let lost = false;
    const reconnect = () => {
      if (lost || stopped) return;
      lost = true;
      client = undefined;
      c.end().catch(() => {});
      retry = setTimeout(() => void connect(), delayMs);
      delayMs = Math.min(delayMs * 2, 5000);
    };
    c.on('error', reconnect);
    c.on('end', reconnect);
    c.on('notification', (message) => message.channel === channel && onNotify());
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch {
      return reconnect();
    }
    if (stopped) return void c.end().catch(() => {});
    client = c;
    if (delayMs > 100) onNotify();
    delayMs = 100;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

export async function openPostgresDb(url: string, options: PostgresOptions = {}): Promise<Db> {
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
    throw new Error('schema name must be a lowercase identifier');
  }
  if (options.schema) {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists ${options.schema}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const base = wrap(pool);
  return {
    engine: 'postgres',
    query: base.query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(transactionOf(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async session(fn) {
      const client = await pool.connect();
      try {
        return await fn(transactionOf(client));
      } finally {
        // Closed, not given back: nothing of the session (a lock, a setting) reaches a pooled query.
        client.release(true);
      }
    },
    listen: (channel, onNotify) => listenOn(url, channel, onNotify),
    async ping() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
