/**
 * Rotating both keys of whole service processes under load (docs/operations.md, "Rotating keys"): lead
 * writes, read-backs and token use run throughout and none may fail. On PostgreSQL two instances serve
 * behind a load balancer of the test's own, restarted one at a time; on the embedded engine one instance
 * serves, and traffic waits while it restarts (nothing else can open its data folder meanwhile). Then the
 * stored values are re-encrypted (by both instances at once on PostgreSQL), the previous keys removed,
 * and every value written before and during the rotation reads back; a start with a key missing is refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyIdOf } from '../../src/shared/keys.ts';
import { createScratchDatabase, startServiceProcess, type ServiceProcess } from '../processes/index.ts';
import { createBalancedLoad } from './balanced-load.ts';

const serverUrl = process.env.DATABASE_URL;
const api = '/mx/b2b/autofin/api';
const adminToken = randomBytes(16).toString('hex');
const [dataA, dataB, dataC, signA, signB] = [0, 1, 2, 3, 4].map(() => randomBytes(32));
const hex = (key: Buffer) => key.toString('hex');
const instances = serverUrl ? 2 : 1;

describe(
  `rotating both keys under load (${instances} instance${instances > 1 ? 's' : ''})`,
  { timeout: 900_000 },
  () => {
    let base: Record<string, string>;
    let dataDir: string | undefined;
    let drop: (() => Promise<void>) | undefined;
    let running: ServiceProcess[] = [];
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    // A cold start on a loaded 2-core machine (migrations, catalog import) can take a minute or more.
    const start = (keys: Record<string, string>) => startServiceProcess({ ...base, ...keys }, { timeoutMs: 240_000 });

    before(async () => {
      base = {
        AUTOFIN_ENV: 'rotation',
        ADMIN_TOKEN: adminToken,
        LOG_LEVEL: 'info',
        TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
        RATE_LIMIT_PER_MINUTE: '1000000',
      };
      if (serverUrl) {
        const database = await createScratchDatabase(serverUrl);
        base.DATABASE_URL = database.url;
        drop = database.drop;
      } else {
        dataDir = mkdtempSync(join(tmpdir(), 'autofin-rotation-'));
        base.DATA_DIR = dataDir;
      }
    });
    after(async () => {
      await Promise.all(running.map((p) => p.stop()));
      await drop?.();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    test('writes, reads and tokens never fail; after re-encryption and without the old keys everything reads back', async () => {
      const oldKeys = { DATA_ENCRYPTION_KEY: hex(dataA), TOKEN_SIGNING_KEY: hex(signA) };
      running = serverUrl ? await Promise.all([start(oldKeys), start(oldKeys)]) : [await start(oldKeys)];
      const load = createBalancedLoad({ api, admin });
      await load.credentialsFrom(running[0]!.base);
      for (const p of running) load.add(p.base);
      const oldToken = load.token();
      load.run(2);
      await load.atLeast(20);

      /** Each instance in turn: out of the balancer, stopped once its requests are answered, started with `keys`. */
      const rollTo = async (keys: Record<string, string>) => {
        for (let i = 0; i < running.length; i++) {
          await load.remove(running[i]!.base);
          await running[i]!.stop();
          running[i] = await start(keys);
          load.add(running[i]!.base);
          await load.atLeast(load.done() + 10);
        }
      };
      // 1. The new keys become readable everywhere before any instance writes or signs with them.
      await rollTo({ ...oldKeys, DATA_ENCRYPTION_PREVIOUS_KEYS: hex(dataB), TOKEN_SIGNING_PREVIOUS_KEYS: hex(signB) });
      // 2. The new keys become current; the old ones stay readable.
      const rotated = {
        DATA_ENCRYPTION_KEY: hex(dataB),
        DATA_ENCRYPTION_PREVIOUS_KEYS: hex(dataA),
        TOKEN_SIGNING_KEY: hex(signB),
        TOKEN_SIGNING_PREVIOUS_KEYS: hex(signA),
      };
      await rollTo(rotated);
      // 3. Re-encryption beside the traffic, by every instance at once, until nothing remains.
      const reencryptAll = async (instanceBase: string) => {
        for (let calls = 0; calls < 1000; calls++) {
          const res = await fetch(`${instanceBase}/admin/keys/reencrypt`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ limit: 7 }),
          });
          assert.equal(res.status, 200, await res.clone().text());
          if ((await res.json()).remaining === 0) return;
        }
        assert.fail('re-encryption did not finish');
      };
      await Promise.all(running.map((p) => reencryptAll(p.base)));
      const status = await (await fetch(`${running[0]!.base}/admin/keys`, { headers: admin })).json();
      assert.deepEqual(
        status.stored.map((s: { keyId: string }) => s.keyId),
        [keyIdOf(dataB)],
        JSON.stringify(status),
      );
      // Tokens signed with the old key are left to expire: the clients take new ones before the key goes.
      await load.renewToken();
      await load.atLeast(load.done() + 10);
      // 4. Without the previous keys.
      await rollTo({ DATA_ENCRYPTION_KEY: hex(dataB), TOKEN_SIGNING_KEY: hex(signB) });
      await load.atLeast(load.done() + 20);
      const summary = await load.stop();

      assert.deepEqual(summary.failures, [], `failed requests: ${summary.failures.slice(0, 5).join('\n')}`);
      assert.ok(summary.leads.size >= 20, `only ${summary.leads.size} leads written`);
      assert.ok(summary.tokens >= 3, `only ${summary.tokens} tokens issued`);
      // Every lead written before and during the rotation reads back as last written.
      const mismatched = await load.verifyAll(running.map((p) => p.base));
      assert.deepEqual(mismatched, []);
      const firstLead = `${running[0]!.base}${api}/leads/${[...summary.leads.keys()][0]}`;
      const refused = await fetch(firstLead, { headers: { authorization: `Bearer ${oldToken}` } });
      assert.equal(refused.status, 401, 'a token signed with the removed signing key is refused');
    });

    test('a start whose keys miss stored values is refused within 30 s, naming the missing key ids', async () => {
      // On a loaded machine a start takes longer: the refusal may then take as long as a start that serves.
      const bound = Math.max(30_000, ...running.map((p) => p.startMs));
      await Promise.all(running.map((p) => p.stop()));
      running = [];
      const started = Date.now();
      const missingB = { DATA_ENCRYPTION_KEY: hex(dataC), DATA_ENCRYPTION_PREVIOUS_KEYS: hex(dataA) };
      await assert.rejects(start(missingB), (error: Error) => {
        assert.match(error.message, /the service exited \(1\)/);
        assert.match(error.message, new RegExp(`key id ${keyIdOf(dataB)} \\(\\d+ values\\)`));
        assert.doesNotMatch(error.message, new RegExp(hex(dataB)));
        return true;
      });
      assert.ok(Date.now() - started < bound, `refused after ${Date.now() - started} ms (bound ${bound} ms)`);
    });
  },
);
