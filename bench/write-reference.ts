/**
 * The reference of the lead write path: a bare Fastify server (no logger, no hooks, no schema) on
 * the service's routes for lead creation and the six section writes, each running the SQL statements
 * the service runs for that request (same texts, parameters of the same shapes, same transaction
 * boundaries) through the same database port (the pg Pool, or PGlite) and answering the same status,
 * with no validation, encryption or logging. What separates the two is the service's own work.
 *
 * The statements are recorded from the service itself: one lead is created and filled through
 * `inject`, while the database's `query` and `transaction` are wrapped for the duration of each
 * request. The reference replays them with the request's own ids: the lead id of the path (or a new
 * one for a creation), new ids for the events, the time of the request for every recorded instant.
 */
import { deserialize, serialize } from 'node:v8';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../src/db/database.ts';
import { newId } from '../src/shared/ids.ts';
import { leadSections } from './lead-writes.ts';
import { recorder, type Step } from './statement-recorder.ts';

export interface RecordedRequest {
  method: 'POST' | 'PUT';
  /** The route, `:id` for the lead. */
  url: string;
  status: number;
  body: string;
  contentType?: string;
  steps: Step[];
}

const api = '/mx/b2b/autofin/api';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One lead created and filled through the service (the load's own requests), recording the
 * statements of each request. A first lead goes unrecorded: what the service caches (the
 * credential's status) is read once, not at every request, and is not part of the replay.
 */
export async function recordWritePath(app: FastifyInstance, db: Db, token: string): Promise<RecordedRequest[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const rec = recorder(db);
  try {
    let recorded: RecordedRequest[] = [];
    for (const pass of [1, 2]) {
      const unrecorded = async <T>(run: () => Promise<T>) => ({ result: await run(), steps: [] as Step[] });
      const record = pass === 2 ? rec.record : unrecorded;
      recorded = [];
      const created = await record(() => app.inject({ method: 'POST', url: `${api}/leads`, headers, payload: '{}' }));
      if (created.result.statusCode !== 201)
        throw new Error(`lead creation: ${created.result.statusCode} ${created.result.body}`);
      const leadId = (created.result.json() as { id: string }).id;
      recorded.push({
        method: 'POST',
        url: `${api}/leads`,
        status: 201,
        body: '',
        steps: withLead(created.steps, leadId),
      });
      for (const [method, section, body] of leadSections(`55123456${pass}0`)) {
        const url = `${api}/leads/${leadId}/${section}`;
        const answer = await record(() => app.inject({ method, url, headers, payload: JSON.stringify(body) }));
        const { statusCode, body: text } = answer.result;
        if (statusCode >= 300) throw new Error(`${section}: ${statusCode} ${text}`);
        recorded.push({
          method,
          url: `${api}/leads/:id/${section}`,
          status: statusCode,
          body: text,
          contentType: answer.result.headers['content-type'] as string | undefined,
          steps: withLead(answer.steps, leadId),
        });
      }
    }
    return recorded;
  } finally {
    rec.restore();
  }
}

/** The recorded lead id marked as such, so a replay puts its own in its place. */
const leadMark = Symbol('lead id');
const withLead = (steps: Step[], leadId: string) =>
  mapParams(steps, (p) => (typeof p === 'string' && p.toLowerCase() === leadId ? leadMark : p));

/** The steps with every statement's parameters mapped. */
function mapParams(steps: Step[], map: (param: unknown) => unknown): Step[] {
  return steps.map((step) =>
    'transaction' in step
      ? { transaction: mapParams(step.transaction, map) }
      : { sql: step.sql, params: step.params.map(map) },
  );
}

/**
 * The recorded requests as bytes for another process (production-writes.ts runs the reference in
 * processes of its own): the structured clone keeps dates and buffers; the lead mark, a symbol, travels
 * as an object of its own.
 */
const leadMarkCopy = { autofinBenchLeadMark: true };
export function serializeRecorded(recorded: RecordedRequest[]): Buffer {
  const steps = (r: RecordedRequest) => mapParams(r.steps, (p) => (p === leadMark ? leadMarkCopy : p));
  return serialize(recorded.map((r) => ({ ...r, steps: steps(r) })));
}

export function deserializeRecorded(bytes: Buffer): RecordedRequest[] {
  const isMark = (p: unknown) => typeof p === 'object' && p !== null && 'autofinBenchLeadMark' in p;
  const steps = (r: RecordedRequest) => mapParams(r.steps, (p) => (isMark(p) ? leadMark : p));
  return (deserialize(bytes) as RecordedRequest[]).map((r) => ({ ...r, steps: steps(r) }));
}

/** The parameters of one replay: the request's lead, a new id for every other recorded id but the company's. */
function replayParams(
  params: unknown[],
  leadId: string,
  companyId: string,
  ids: Map<string, string>,
  now: Date,
): unknown[] {
  return params.map((p) => {
    if (p === leadMark) return leadId;
    if (p instanceof Date) return now;
    if (typeof p === 'string' && uuid.test(p) && p !== companyId) {
      let id = ids.get(p);
      if (!id) ids.set(p, (id = newId()));
      return id;
    }
    return p;
  });
}

async function replay(db: Db, steps: Step[], leadId: string, companyId: string): Promise<void> {
  const ids = new Map<string, string>();
  const now = new Date();
  const run = async (target: Queryable, list: Step[]): Promise<void> => {
    for (const step of list) {
      if ('transaction' in step) await db.transaction((tx) => run(tx, step.transaction));
      else await target.query(step.sql, replayParams(step.params, leadId, companyId, ids, now));
    }
  };
  await run(db, steps);
}

/** The recorded statements as the listing of a report: one line per statement, the transactions marked. */
export function describeStatements(recorded: RecordedRequest[]): string[] {
  const lines: string[] = [];
  const add = (steps: Step[], indent: string) => {
    for (const step of steps) {
      if ('transaction' in step) {
        lines.push(`${indent}begin`);
        add(step.transaction, `${indent}  `);
        lines.push(`${indent}commit`);
      } else lines.push(`${indent}${step.sql.replace(/\s+/g, ' ').slice(0, 90)}… (${step.params.length} parameters)`);
    }
  };
  for (const r of recorded) {
    lines.push(`${r.method} ${r.url.replace(api, '')} → ${r.status}`);
    add(r.steps, '  ');
  }
  return lines;
}

export async function startWriteReference(
  db: Db,
  companyId: string,
  recorded: RecordedRequest[],
): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false });
  for (const r of recorded) {
    if (r.method === 'POST' && r.url === `${api}/leads`) {
      app.post(r.url, async (_request, reply) => {
        const id = newId();
        await replay(db, r.steps, id, companyId);
        return reply.code(201).send({ id });
      });
      continue;
    }
    app.route({
      method: r.method,
      url: r.url,
      handler: async (request, reply) => {
        await replay(db, r.steps, (request.params as { id: string }).id.toLowerCase(), companyId);
        if (r.status === 204) return reply.code(204).send();
        return reply
          .code(r.status)
          .header('content-type', r.contentType ?? 'application/json')
          .send(r.body);
      },
    });
  }
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base };
}
