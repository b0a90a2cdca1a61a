/**
 * Partner traffic spread over service instances, as a load balancer does: instances join and leave
 * the pool (one leaving is sent nothing new, and is stopped only once its requests are answered). Each
 * worker creates leads, changes their e-mail, reads them back, and renews the token now and then; any
 * answer other than the expected one, or a request that never got an answer, is a failure.
 */
interface Expected {
  phone: string;
  email: string;
}

const expectedStatus = { create: 201, update: 204, read: 200 } as const;

export function createBalancedLoad(options: { api: string; admin: Record<string, string> }) {
  const pool: string[] = [];
  const inFlight = new Map<string, number>();
  const leads = new Map<string, Expected>();
  const failures: string[] = [];
  let credential = { consumer_key: '', consumer_secret: '' };
  let token = '';
  let tokens = 0;
  let done = 0;
  let next = 0;
  let stopping = false;
  let workers: Promise<void>[] = [];
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function pick(): Promise<string> {
    while (pool.length === 0) await sleep(20);
    return pool[next++ % pool.length]!;
  }

  /** One request to an instance of the pool; the instance stays busy until it is answered. */
  async function send(path: string, init: RequestInit = {}): Promise<Response | undefined> {
    const base = await pick();
    inFlight.set(base, (inFlight.get(base) ?? 0) + 1);
    try {
      return await fetch(`${base}${path}`, init);
    } catch (error) {
      failures.push(`${init.method ?? 'GET'} ${path} on ${base}: ${(error as Error).message}`);
      return undefined;
    } finally {
      inFlight.set(base, inFlight.get(base)! - 1);
    }
  }

  async function renewToken(): Promise<void> {
    const res = await send('/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credential),
    });
    if (res?.status !== 200) {
      if (res) failures.push(`token: ${res.status} ${await res.text()}`);
      return;
    }
    token = ((await res.json()) as { access_token: string }).access_token;
    tokens += 1;
  }

  async function partner(kind: keyof typeof expectedStatus, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await send(`${options.api}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res) return undefined;
    if (res.status !== expectedStatus[kind]) {
      failures.push(`${method} ${path}: ${res.status} ${await res.text()}`);
      return undefined;
    }
    return res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>);
  }

  async function worker(index: number): Promise<void> {
    const own: string[] = [];
    let renewedAt = Date.now();
    for (let step = 0; !stopping; step++) {
      const n = `${index}${step}`.padStart(8, '0').slice(-8);
      if (Date.now() - renewedAt > 1000) {
        renewedAt = Date.now();
        await renewToken();
      }
      if (step % 3 === 0 || own.length === 0) {
        const expected = { phone: `55${n}`, email: `w${index}.${step}@example.com` };
        const created = await partner('create', 'POST', '/leads', { autoFinB2BLeadCreatePayload: expected });
        if (created) {
          own.push(created.id as string);
          leads.set(created.id as string, expected);
        }
      } else if (step % 3 === 1) {
        const id = own[step % own.length]!;
        const expected = { phone: leads.get(id)!.phone, email: `w${index}.${step}.nuevo@example.com` };
        if (await partner('update', 'PUT', `/leads/${id}/contact-info`, expected)) leads.set(id, expected);
      } else {
        const id = own[step % own.length]!;
        const lead = await partner('read', 'GET', `/leads/${id}`);
        if (lead && JSON.stringify(lead.contact) !== JSON.stringify(leads.get(id))) {
          failures.push(`read ${id}: ${JSON.stringify(lead.contact)} instead of ${JSON.stringify(leads.get(id))}`);
        }
      }
      done += 1;
    }
  }

  return {
    /** A company and a credential of its own, made through the admin API of `base`, and a first token. */
    async credentialsFrom(base: string) {
      const post = async (path: string) => {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: options.admin,
          body: JSON.stringify({ name: 'Autos Rotación' }),
        });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<Record<string, string>>;
      };
      const company = await post('/admin/companies');
      const created = await post(`/admin/companies/${company.id}/credentials`);
      credential = { consumer_key: created.consumer_key!, consumer_secret: created.consumer_secret! };
      pool.push(base);
      await renewToken();
      pool.splice(pool.indexOf(base), 1);
      if (!token) throw new Error(`no token: ${failures.join('\n')}`);
    },
    token: () => token,
    renewToken,
    add(base: string) {
      pool.push(base);
    },
    /** Out of the pool; resolves once every request sent to it is answered. */
    async remove(base: string) {
      pool.splice(pool.indexOf(base), 1);
      while ((inFlight.get(base) ?? 0) > 0) await sleep(10);
    },
    run(count: number) {
      workers = Array.from({ length: count }, (_, i) => worker(i));
    },
    done: () => done,
    /** Resolves once `n` operations are done (fails after a minute, with the failures so far). */
    async atLeast(n: number) {
      const deadline = Date.now() + 60_000;
      while (done < n) {
        if (Date.now() > deadline)
          throw new Error(`only ${done} of ${n} operations in a minute: ${failures.slice(0, 3).join('\n')}`);
        await sleep(20);
      }
    },
    async stop() {
      stopping = true;
      await Promise.all(workers);
      return { failures, leads, tokens };
    },
    /** Reads every lead written back through `bases`, with a new token; the ones that differ. */
    async verifyAll(bases: string[]): Promise<string[]> {
      pool.splice(0, pool.length, ...bases);
      await renewToken();
      const mismatched: string[] = [];
      for (const [id, expected] of leads) {
        const lead = await partner('read', 'GET', `/leads/${id}`);
        if (!lead || JSON.stringify(lead.contact) !== JSON.stringify(expected))
          mismatched.push(`${id}: ${JSON.stringify(lead?.contact)}`);
      }
      return mismatched.concat(failures);
    },
  };
}
