/**
 * PGlite has no OpenTelemetry instrumentation: its statements get a client span each here, named
 * and described as the `pg` instrumentation describes PostgreSQL's (`db.system` `postgresql`, the
 * statement's text), never with its parameter values. Statements outside a trace (background
 * polling) get none.
 */
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Db, Queryable, Transaction } from '../db/index.ts';

const operationOf = (sql: string): string => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';

function statementSpan<T>(tracer: Tracer, sql: string, run: () => Promise<T>): Promise<T> {
  if (!trace.getSpan(context.active())) return run();
  const operation = operationOf(sql);
  const attributes = {
    'db.system': 'postgresql',
    'db.system.name': 'postgresql',
    'db.operation.name': operation,
    'db.query.text': sql,
    'autofin.db.engine': 'pglite',
  };
  return tracer.startActiveSpan(`pg.query:${operation}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await run();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

function tracedQueryable<Q extends Queryable>(target: Q, tracer: Tracer): Queryable {
  return { query: (sql, params) => statementSpan(tracer, sql, () => target.query(sql, params)) };
}

function tracedTransaction(tx: Transaction, tracer: Tracer): Transaction {
  return {
    ...tracedQueryable(tx, tracer),
    copyCsv: (table, columns, csv) =>
      statementSpan(tracer, `copy ${table} (${columns.join(', ')}) from stdin`, () => tx.copyCsv(table, columns, csv)),
  };
}

export function tracedDb(db: Db, tracer: Tracer): Db {
  return {
    engine: db.engine,
    ...tracedQueryable(db, tracer),
    transaction: (fn) => db.transaction((tx) => fn(tracedTransaction(tx, tracer))),
    ping: () => db.ping(),
    listen: (channel, onNotice) => db.listen(channel, onNotice),
    ...(db.dumpDataDir && { dumpDataDir: () => db.dumpDataDir!() }),
    close: () => db.close(),
  };
}
