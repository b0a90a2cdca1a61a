/**
 * A failed statement's error, without the values it was given. Drivers attach the parameters
 * (PGlite's `params`), the row (`detail`: "Key (x)=(…)"), and data exceptions quote the offending
 * value in the message (`invalid input syntax for type uuid: "…"`); a logged error carries none of
 * them, only the SQLSTATE, the condition and the statement's text.
 */
export class QueryError extends Error {
  constructor(
    message: string,
    /** SQLSTATE, e.g. `22021` for an invalid byte sequence. */
    readonly code: string | undefined,
    readonly statement: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

/** Class 22 (data exception) messages end with the value: `…: "abc"`, `…: 0x00`. */
function conditionOnly(message: string, code: string | undefined): string {
  return code?.startsWith('22') ? message.replace(/:\s[\s\S]*$/, '') : message;
}

export function queryError(error: unknown, sql: string): QueryError {
  const source = error as { message?: unknown; code?: unknown; stack?: unknown };
  const code = typeof source.code === 'string' ? source.code : undefined;
  const message = conditionOnly(typeof source.message === 'string' ? source.message : 'query failed', code);
  const wrapped = new QueryError(message, code, sql.replace(/\s+/g, ' ').trim().slice(0, 500));
  if (typeof source.stack === 'string') {
    wrapped.stack = `QueryError: ${message}\n${source.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n')}`;
  }
  return wrapped;
}
