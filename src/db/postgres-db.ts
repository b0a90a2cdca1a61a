/** The server engine: PostgreSQL through a `pg` pool, optionally confined to one schema. */
import pg from 'pg';
import type { Db, Queryable, QueryResult } from './database.ts';

export interface PostgresOptions {
  /** Every connection uses this schema first (tests give each file its own). */
  schema?: string;
  max?: number;
}

function wrap(target: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query(sql, params);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
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
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
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
