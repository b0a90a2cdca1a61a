/**
 * SIGTERM under load: sixteen clients on keep-alive connections keep creating leads and reading
 * them while the process is told to stop. Requests in flight finish; later ones are answered 503 /
 * 5030 with `Connection: close`, or their connection is refused; no request the service had read
 * meets a reset (the service logs every request it reads, at debug, with its X-Request-Id); the
 * process exits 0.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { api, engine, newPartner, reliabilityInstallation, type Instance, type PartnerAccess } from './installation.ts';

const clients = 16;
const drainMs = 1500;

type Outcome = { id: string; at: number; status?: number; code?: number; connection?: string; error?: string };

describe(`SIGTERM under load (${engine})`, () => {
  let install: Awaited<ReturnType<typeof reliabilityInstallation>>;
  let instance: Instance;
  let partner: PartnerAccess;

  before(async () => {
    install = await reliabilityInstallation('sigterm');
    instance = await install.start({ LOG_LEVEL: 'debug', SHUTDOWN_DRAIN_MS: String(drainMs) });
    partner = await newPartner(instance.base);
  });
  after(() => install.drop());

  test(
    'in-flight requests finish, later ones get 503 / 5030 or a refused connection, never a reset; exit 0',
    { timeout: 300_000 },
    async () => {
      const agent = new Agent({ connections: clients, keepAliveTimeout: 60_000, pipelining: 1 });
      const outcomes: Outcome[] = [];
      let sequence = 0;
      let stopped = false;
      let signalledAt = Infinity;
      const one = async (method: 'POST' | 'GET', path: string) => {
        const id = `sigterm-${++sequence}`;
        const outcome: Outcome = { id, at: Date.now() };
        try {
          const res = await request(`${instance.base}${api}${path}`, {
            method,
            dispatcher: agent,
            headers: { ...partner.headers, 'x-request-id': id },
            body: method === 'POST' ? '{}' : undefined,
          });
          const text = await res.body.text();
          outcome.status = res.statusCode;
          outcome.connection = String(res.headers.connection ?? '');
          if (res.statusCode >= 400) outcome.code = JSON.parse(text).code;
          outcomes.push(outcome);
          return res.statusCode === 201 ? (JSON.parse(text).id as string) : undefined;
        } catch (error) {
          const e = error as Error & { code?: string; cause?: { code?: string } };
          outcome.error = `${e.code ?? ''} ${e.cause?.code ?? ''} ${e.message}`;
          outcomes.push(outcome);
          await sleep(5);
          return undefined;
        }
      };
      const worker = async () => {
        while (!stopped) {
          const id = await one('POST', '/leads');
          if (id) await one('GET', `/leads/${id}`);
        }
      };
      const workers = Array.from({ length: clients }, worker);
      // Under load: wait for every client to have had answers (a loaded CI machine may take a while).
      const loaded = Date.now() + 60_000;
      while (outcomes.filter((o) => o.status === 201).length < clients * 2 && Date.now() < loaded) await sleep(50);
      signalledAt = Date.now();
      const exit = await instance.kill('SIGTERM');
      const exitedAt = Date.now();
      await sleep(300);
      stopped = true;
      await Promise.all(workers);
      await agent.close();

      const log = instance.stdout();
      const read = (o: Outcome) => log.includes(`"requestId":"${o.id}"`);
      const before = outcomes.filter((o) => o.at < signalledAt);
      const after = outcomes.filter((o) => o.at >= signalledAt);
      const errors = outcomes.filter((o) => o.error);
      const resetAfterRead = errors.filter((o) => !/ECONNREFUSED/.test(o.error!) && read(o));
      const unavailable = outcomes.filter((o) => o.status === 503);
      const summary =
        `${outcomes.length} requests: ${before.length} before SIGTERM, ${after.length} after; ` +
        `${outcomes.filter((o) => o.status && o.status < 300).length} answered 2xx, ${unavailable.length} answered 503, ` +
        `${errors.filter((o) => /ECONNREFUSED/.test(o.error!)).length} refused, ${errors.length} failed in all; exit ${exit.code} ` +
        `${exitedAt - signalledAt} ms after the signal`;
      console.log(`sigterm test figures (${engine}): ${summary}`);

      assert.equal(exit.code, 0, instance.stderr());
      assert.deepEqual(resetAfterRead, [], `requests the service had read met a reset: ${summary}`);
      const unexpected = outcomes.filter((o) => o.status !== undefined && ![200, 201, 503].includes(o.status));
      assert.deepEqual(unexpected, [], summary);
      for (const o of unavailable) {
        assert.equal(o.code, 5030, JSON.stringify(o));
        assert.equal(o.connection, 'close', JSON.stringify(o));
      }
      assert.ok(before.filter((o) => o.status === 201).length >= clients * 2, summary);
      const sentBeforeFailed = before.filter((o) => o.error);
      assert.deepEqual(sentBeforeFailed, [], `every request sent before the signal was answered: ${summary}`);
      assert.ok(unavailable.length > 0, `some requests arrived while stopping: ${summary}`);
      assert.match(log, /"msg":"stopped"/);
    },
  );
});
