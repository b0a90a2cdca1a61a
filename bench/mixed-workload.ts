/**
 * The mixed partner workload of `npm run bench -- production` (section 3): catalog lookups, lead
 * creation, a section write, PIN send and PIN confirmation, lead reads and a page of the list, over
 * the service processes, from the constant-rate generator (constant-rate.ts), with the CPU each part
 * of the machine used during the run.
 *
 * The PIN operations need leads in the right state, made before each run (not measured): a PIN is
 * sent to leads with a phone (each gets at most 4 sends a run, under the limit of 5 in 10 minutes),
 * and confirmed on leads with contact, address and person whose PIN was sent beforehand and read
 * back through the sandbox's messages route (docs/sandbox.md): the instances run as a sandbox with
 * the `log` SMS provider, which answers at once, and the sandbox bureau.
 */
import { cpuSnapshot, postgresSecondsBetween } from './cpu-accounting.ts';
import { leadSections } from './lead-writes.ts';
import { runConstantRate, type Operation, type RunResult } from './constant-rate.ts';
import type { ServiceProcess } from '../test/processes/index.ts';

const api = '/mx/b2b/autofin/api';
const loanInfo = JSON.stringify({ downPayment: 80000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' });
const sendsPerLead = 4;

interface Partner {
  headers: Record<string, string>;
}
interface LeadOf {
  partner: number;
  id: string;
}
interface ConfirmLead extends LeadOf {
  pin: string;
}

/** CPU used during a run, in cores (seconds of CPU per second of the run). */
export interface RunCpu {
  services: number;
  generator: number;
  postgres: number;
  machine: number;
}

const weights = {
  brands: 22,
  zip: 18,
  create: 10,
  loanInfo: 13,
  pinSend: 4,
  pinConfirm: 4,
  read: 15,
  page: 14,
};
const weightSum = Object.values(weights).reduce((a, b) => a + b, 0);

export async function mixedWorkload(instances: ServiceProcess[], partners: Partner[]) {
  const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });
  let phones = 0;
  let made = 0;
  const nextPhone = () => String(5510000000 + phones++);

  async function call(partner: number, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
    const base = instances[made++ % instances.length].base;
    const res = await fetch(`${base}${api}${path}`, {
      method,
      headers: body === undefined ? partners[partner].headers : json(partners[partner].headers),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  }

  const newLead = async (partner: number) =>
    (JSON.parse(await call(partner, 'POST', '/leads', {})) as { id: string }).id;

  /** `count` leads made by `make`, 16 at a time. */
  async function many<T>(count: number, make: (k: number) => Promise<T>): Promise<T[]> {
    const out: T[] = [];
    for (let k = 0; k < count; k += 16) {
      out.push(...(await Promise.all(Array.from({ length: Math.min(16, count - k) }, (_, j) => make(k + j)))));
    }
    return out;
  }

  /** A lead with a phone, to send PINs to. */
  async function sendable(k: number): Promise<LeadOf> {
    const partner = k % partners.length;
    const id = await newLead(partner);
    await call(partner, 'PUT', `/leads/${id}/contact-info`, { phone: nextPhone(), email: `bench${k}@example.com` });
    return { partner, id };
  }

  /** A lead with contact, address and person, whose PIN was sent and read back. */
  async function confirmable(k: number): Promise<ConfirmLead> {
    const partner = k % partners.length;
    const id = await newLead(partner);
    for (const [method, section, body] of leadSections(nextPhone()))
      await call(partner, method, `/leads/${id}/${section}`, body);
    await call(partner, 'POST', `/leads/${id}/pin`, { channel: 'SMS' });
    const messages = JSON.parse(await call(partner, 'GET', `/sandbox/leads/${id}/messages`)) as {
      items: { body: string }[];
    };
    const pin = /\b(\d{6})\b/.exec(messages.items[0]?.body ?? '')?.[1];
    if (!pin) throw new Error(`no PIN message for lead ${id}`);
    return { partner, id, pin };
  }

  // Leads to read and write: a few per partner, with a section saved so they are listed.
  const leads = await many(partners.length * 10, async (k) => {
    const partner = k % partners.length;
    const id = await newLead(partner);
    await call(partner, 'PUT', `/leads/${id}/loan-info`, JSON.parse(loanInfo));
    return { partner, id };
  });

  const at = (i: number) => instances[i % instances.length].base;
  const who = (i: number) => partners[Math.floor(i / instances.length) % partners.length].headers;
  const lead = (i: number) => leads[i % leads.length];
  let sendPool: LeadOf[] = [];
  let confirmPool: ConfirmLead[] = [];
  let sends = 0;
  let confirms = 0;

  const operations: Operation[] = [
    {
      name: 'GET catalog brands',
      weight: weights.brands,
      request: (i) => ({ base: at(i), method: 'GET', path: `${api}/catalogs/years/2020/brands`, headers: who(i) }),
    },
    {
      name: 'GET catalog zip-code',
      weight: weights.zip,
      request: (i) => ({ base: at(i), method: 'GET', path: `${api}/catalogs/zip-code/06700`, headers: who(i) }),
    },
    {
      name: 'POST /leads',
      weight: weights.create,
      request: (i) => ({ base: at(i), method: 'POST', path: `${api}/leads`, headers: json(who(i)), body: '{}' }),
    },
    {
      name: 'PUT loan-info',
      weight: weights.loanInfo,
      request: (i) => ({
        base: at(i),
        method: 'PUT',
        path: `${api}/leads/${lead(i).id}/loan-info`,
        headers: json(partners[lead(i).partner].headers),
        body: loanInfo,
      }),
    },
    {
      name: 'POST pin (send)',
      weight: weights.pinSend,
      request: (i) => {
        const target = sendPool[Math.floor(sends++ / sendsPerLead) % sendPool.length];
        return {
          base: at(i),
          method: 'POST',
          path: `${api}/leads/${target.id}/pin`,
          headers: json(partners[target.partner].headers),
          body: '{"channel":"SMS"}',
        };
      },
    },
    {
      name: 'POST pin/confirmation',
      weight: weights.pinConfirm,
      request: (i) => {
        const target = confirmPool[confirms++ % confirmPool.length];
        return {
          base: at(i),
          method: 'POST',
          path: `${api}/leads/${target.id}/pin/confirmation`,
          headers: json(partners[target.partner].headers),
          body: JSON.stringify({ pin: target.pin }),
        };
      },
    },
    {
      name: 'GET /leads/:id',
      weight: weights.read,
      request: (i) => ({
        base: at(i),
        method: 'GET',
        path: `${api}/leads/${lead(i).id}`,
        headers: partners[lead(i).partner].headers,
      }),
    },
    {
      name: 'GET /leads (page)',
      weight: weights.page,
      request: (i) => ({ base: at(i), method: 'GET', path: `${api}/leads?limit=20`, headers: who(i) }),
    },
  ];

  return {
    /**
     * One run at `rate` for `seconds` (leads for its PIN operations made first), and the CPU of
     * the service processes, this process (the generator), PostgreSQL and the machine meanwhile.
     */
    async run(
      rate: number,
      seconds: number,
      events: Parameters<typeof runConstantRate>[3] = [],
    ): Promise<{ result: RunResult; cpu?: RunCpu }> {
      // The generator's order gives each operation its share within one request.
      const share = (weight: number) => Math.ceil((rate * seconds * weight) / weightSum) + 1;
      sendPool = await many(Math.ceil(share(weights.pinSend) / sendsPerLead), sendable);
      confirmPool = await many(share(weights.pinConfirm), confirmable);
      sends = 0;
      confirms = 0;
      const services = () => instances.reduce((sum, i) => sum + i.cpuSeconds(), 0);
      const before = { services: services(), generator: process.cpuUsage(), machine: cpuSnapshot() };
      const started = performance.now();
      const result = await runConstantRate(operations, rate, seconds, events);
      const elapsed = (performance.now() - started) / 1000;
      const machine = cpuSnapshot();
      const generator = process.cpuUsage(before.generator);
      if (!before.machine || !machine) return { result };
      return {
        result,
        cpu: {
          services: (services() - before.services) / elapsed,
          generator: (generator.user + generator.system) / 1e6 / elapsed,
          postgres: postgresSecondsBetween(before.machine, machine) / elapsed,
          machine: (machine.machineBusy - before.machine.machineBusy) / elapsed,
        },
      };
    },
  };
}
