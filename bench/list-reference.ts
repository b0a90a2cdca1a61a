/**
 * The reference of a lead list page: a bare Fastify server (no logger, no hooks, no schema) whose
 * route runs the SQL statements the service ran for the same request (recorded from the service,
 * same texts and parameters) through the same database object, and answers the last statement's rows
 * as JSON with no mapping. Measured at the same fixed rates as the service, it shows what a page costs
 * on this machine before any of the service's own work: the HTTP exchange and the query.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Db, QueryResult } from '../src/db/database.ts';

export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The statements `request` runs, recorded by wrapping `db.query` (the object every repository holds)
 * for its duration. Nothing else runs meanwhile (the bench sends one request at a time before the
 * load, and starts no worker). A list runs no transaction: one would make the replay unfaithful, so
 * it fails the bench instead.
 */
export async function recordStatements(db: Db, request: () => Promise<unknown>): Promise<Statement[]> {
  const mutable = db as { -readonly [K in keyof Db]: Db[K] };
  const original = { query: db.query, transaction: db.transaction };
  const seen: Statement[] = [];
  mutable.query = <T,>(sql: string, params: unknown[] = []) => {
    seen.push({ sql, params });
    return original.query.call(db, sql, params) as Promise<QueryResult<T>>;
  };
  mutable.transaction = () => {
    throw new Error('a list request ran a transaction: the list reference replays single statements only');
  };
  try {
    await request();
  } finally {
    Object.assign(mutable, original);
  }
  if (seen.length === 0) throw new Error('the request ran no statement');
  return seen;
}

export async function startListReference(
  db: Db,
  routes: { path: string; statements: Statement[] }[],
): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false });
  for (const { path, statements } of routes) {
    app.get(path, async () => {
      let rows: unknown[] = [];
      for (const s of statements) rows = (await db.query(s.sql, s.params)).rows;
      return { items: rows };
    });
  }
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}
