/**
 * The reference of a lead list page: a bare Fastify server (no logger, no hooks, no schema) whose
 * route runs the SQL statements the service ran for the same request (recorded from the service,
 * same texts and parameters) through the same database object, and answers the last statement's rows
 * as JSON with no mapping. Measured at the same fixed rates as the service, it shows what a page costs
 * on this machine before any of the service's own work: the HTTP exchange and the query.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Db } from '../src/db/database.ts';
import { recorder } from './statement-recorder.ts';

export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The statements `request` runs (statement-recorder.ts). A list runs no transaction: one would make
 * the replay of single statements unfaithful, so it fails the bench instead.
 */
export async function recordStatements(db: Db, request: () => Promise<unknown>): Promise<Statement[]> {
  const rec = recorder(db);
  try {
    const { steps } = await rec.record(request);
    if (steps.length === 0) throw new Error('the request ran no statement');
    return steps.map((step) => {
      if ('transaction' in step)
        throw new Error('a list request ran a transaction: the list reference replays single statements only');
      return step;
    });
  } finally {
    rec.restore();
  }
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
