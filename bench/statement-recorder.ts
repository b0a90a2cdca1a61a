/**
 * Records the SQL statements a request of the service runs, as the bench's references replay them
 * (write-reference.ts, list-reference.ts): each statement's text and parameters, and the statements
 * of a transaction grouped as one step.
 */
import type { Db, Queryable } from '../src/db/database.ts';

export type Step = { sql: string; params: unknown[] } | { transaction: Step[] };

/**
 * Wraps `db.query` and `db.transaction` (the object every repository holds) while `record` runs one
 * request. Nothing else may run meanwhile: the benches record one request at a time, before the
 * load, with no worker started. `restore` puts the originals back.
 */
export function recorder(db: Db) {
  let current: Step[] | undefined;
  const recording = (target: Queryable, steps: () => Step[] | undefined): Queryable => ({
    query: (sql, params = []) => {
      steps()?.push({ sql, params });
      return target.query(sql, params);
    },
  });
  const original = { query: db.query, transaction: db.transaction };
  const mutable = db as { -readonly [K in keyof Db]: Db[K] };
  mutable.query = recording({ query: original.query }, () => current).query;
  mutable.transaction = (fn) => {
    if (!current) return original.transaction(fn);
    const inner: Step[] = [];
    current.push({ transaction: inner });
    // A COPY is not recorded: the requests the bench replays run none.
    return original.transaction((tx) => fn({ ...recording(tx, () => inner), copyCsv: tx.copyCsv }));
  };
  return {
    async record<T>(run: () => Promise<T>): Promise<{ result: T; steps: Step[] }> {
      const steps: Step[] = [];
      current = steps;
      try {
        return { result: await run(), steps };
      } finally {
        current = undefined;
      }
    },
    restore() {
      Object.assign(mutable, original);
    },
  };
}
