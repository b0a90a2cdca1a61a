/**
 * Where the main thread's CPU goes during a load run: a V8 CPU profile of this thread (node:inspector),
 * its self time summed by what the code does, per request. The load generator runs in a worker thread
 * and is not in the profile. The profile samples wall time (a thread the machine did not run is
 * counted in what it was doing), so its shares are scaled to the thread's CPU time from /proc.
 * Profiling slows the thread down a little; the shares are what it shows.
 */
import { currentThreadCpuSeconds } from './cpu-accounting.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** BENCH_PROFILE_DIR: each profile is also written there (profile-1.cpuprofile, …), for DevTools or a script. */
const profileDir = process.env.BENCH_PROFILE_DIR;
let profilesWritten = 0;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export type Kinds = [string, (url: string, fn: string) => boolean][];

/** The kinds of work, first match wins (by the script's URL, or the function's name for V8's own). */
const kinds: Kinds = [
  [
    'validation (schemas, section checks)',
    (u) =>
      /typebox|ajv|src\/http\/(schema-validator|validation|field-errors)|src\/leads\/(lead-sections|rfc|birth-date)|src\/catalogs\//.test(
        u,
      ),
  ],
  ['encryption and fingerprints', (u) => /internal\/crypto|field-encryption|lead-record|src\/shared\/keys/.test(u)],
  ['logging', (u) => /pino|sonic-boom|thread-stream|lazy-request-logger|src\/shared\/logging/.test(u)],
  ['database driver', (u) => /node_modules\/(pg|pg-[a-z]+|postgres-[a-z]+|@electric-sql)\/|src\/db\//.test(u)],
  ['JSON answers', (u) => /fast-json-stringify|secure-json-parse|json-body/.test(u)],
  [
    'HTTP and Fastify',
    (u) =>
      /fastify|find-my-way|avvio|light-my-request|node:_http|node:internal\/(http|stream|net|streams)|node:net|node:stream|_http_/.test(
        u,
      ),
  ],
  ['rate limit, auth, other service code', (u) => /\/src\//.test(u)],
  [
    'promises, timers, async context',
    (u) => /node:internal\/(async_hooks|process\/task_queues|timers|promise)|node:async_hooks|node:timers/.test(u),
  ],
  ['garbage collector', (_u, f) => f === '(garbage collector)'],
  ['V8 outside any script (program)', (_u, f) => f === '(program)'],
  ['idle', (_u, f) => f === '(idle)'],
];

export interface CpuBreakdown {
  /** Microseconds of the main thread per request, by kind of work (idle excluded). */
  perRequest: Map<string, number>;
  totalMicros: number;
}

export async function profileMainThread<T>(
  run: () => Promise<T>,
  requestsOf: (result: T) => number,
  table: Kinds = kinds,
): Promise<{ result: T; breakdown: CpuBreakdown }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const cpuBefore = currentThreadCpuSeconds();
    const result = await run();
    const cpuAfter = currentThreadCpuSeconds();
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    if (profileDir) {
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, `profile-${++profilesWritten}.cpuprofile`), JSON.stringify(profile));
    }
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parentOf = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
    // Native code and V8's builtins have no script: their time is that of the script calling them.
    const kindOf = new Map<number, string>();
    const kindOfNode = (id: number): string => {
      const known = kindOf.get(id);
      if (known) return known;
      const { url, functionName } = byId.get(id)!.callFrame;
      const parent = parentOf.get(id);
      const kind =
        url === '' && parent !== undefined && !functionName.startsWith('(')
          ? kindOfNode(parent)
          : (table.find(([, match]) => match(url, functionName))?.[0] ?? 'other (V8, Node)');
      kindOf.set(id, kind);
      return kind;
    };
    for (const node of profile.nodes) kindOfNode(node.id);
    const micros = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const kind = kindOf.get(id) ?? 'other (V8, Node)';
      if (!byId.has(id) || kind === 'idle') return;
      micros.set(kind, (micros.get(kind) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
    const requests = Math.max(1, requestsOf(result));
    const sampled = [...micros.values()].reduce((a, b) => a + b, 0);
    // Without /proc the sampled (wall) time stands for the CPU time.
    const cpuMicros = cpuBefore === undefined || cpuAfter === undefined ? sampled : (cpuAfter - cpuBefore) * 1e6;
    const scale = sampled > 0 ? cpuMicros / sampled : 0;
    const perRequest = new Map([...micros].map(([k, v]) => [k, (v * scale) / requests]));
    return { result, breakdown: { perRequest, totalMicros: cpuMicros / requests } };
  } finally {
    session.disconnect();
  }
}

/** Kinds in a stable order for a table of two breakdowns. */
export function kindsOf(breakdowns: CpuBreakdown[], table: Kinds = kinds): string[] {
  const all = new Set(breakdowns.flatMap((b) => [...b.perRequest.keys()]));
  return [...table.map(([k]) => k), 'other (V8, Node)'].filter((k) => all.has(k));
}
