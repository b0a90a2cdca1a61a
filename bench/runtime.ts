/**
 * `npm run bench -- runtime`: start-to-ready time and idle memory of `dist/main.js` on Node 20 (the
 * machine's /usr/bin/node) and Node 24 (the project's node_modules/.bin/node), with and without Node's
 * compile cache, in alternating rounds on one embedded DATA_DIR (restored from the test template, so no
 * first start is measured). Ready is the first 200 from /health/ready, which waits for the catalogs;
 * idle memory is the resident set after 2 s of rest. About 2 minutes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restoreDataDir } from '../src/db/restore-data-dir.ts';
import { ensurePgliteTemplate } from '../test/test-templates.ts';
import { projectRoot, startServiceProcess, type ServiceProcess } from '../test/processes/index.ts';
import { median } from './measure.ts';

const rounds = Number(process.env.BENCH_RUNTIME_ROUNDS ?? 3);
const idleMs = 2000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const describe = (s: { readyMs: number; cpuMs: number; rssBytes: number }) =>
  `ready in ${Math.round(s.readyMs)} ms (CPU ${s.cpuMs} ms), ${mib(s.rssBytes)}`;

interface Variant {
  label: string;
  node: string;
  env: Record<string, string>;
}

interface Sample {
  readyMs: number;
  /** CPU time (user + system) the process used until ready: less swayed by a loaded machine than wall time. */
  cpuMs: number;
  rssBytes: number;
}

function versionOf(node: string): string | undefined {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** One start: spawn, poll /health/ready until 200, rest, read the RSS, stop with SIGTERM. */
async function startOnce(variant: Variant, dataDir: string): Promise<Sample> {
  const env = { ...variant.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_OPTIONS: undefined };
  let service: ServiceProcess;
  try {
    service = await startServiceProcess(env, { node: variant.node, ready: 'health', timeoutMs: 180_000 });
  } catch (error) {
    throw new Error(`${variant.label}: ${(error as Error).message}`, { cause: error });
  }
  const cpuMs = Math.round(service.cpuSeconds() * 1000);
  await sleep(idleMs);
  const rssBytes = service.rssBytes();
  await service.stop();
  return { readyMs: service.startMs, cpuMs, rssBytes };
}

export async function runtimeStarts(): Promise<void> {
  const node24 = process.version.startsWith('v24.') ? process.execPath : join(projectRoot, 'node_modules/.bin/node');
  const candidates = [process.env.BENCH_NODE20 ?? '/usr/bin/node', node24];
  const [v20, v24] = candidates.map(versionOf);
  const folder = mkdtempSync(join(tmpdir(), 'autofin-bench-runtime-'));
  const cache = join(folder, 'compile-cache');
  const variants: Variant[] = [];
  const noCache = { NODE_DISABLE_COMPILE_CACHE: '1' };
  if (v20?.startsWith('v20.')) variants.push({ label: `Node ${v20}`, node: candidates[0], env: noCache });
  else console.log(`no Node 20 at ${candidates[0]} (${v20 ?? 'missing'}): measuring Node 24 only`);
  variants.push(
    { label: `Node ${v24}, no compile cache`, node: node24, env: noCache },
    { label: `Node ${v24}, compile cache`, node: node24, env: { NODE_COMPILE_CACHE: cache } },
  );
  try {
    const dataDir = join(folder, 'data');
    const restoring = performance.now();
    await restoreDataDir(dataDir, await openAsBlob((await ensurePgliteTemplate()).pathname));
    console.log(`DATA_DIR restored from the test template in ${Math.round(performance.now() - restoring)} ms`);
    const rest = `${idleMs / 1000} s after ready`;
    console.log(`\nstart to ready (/health/ready 200) and idle RSS (${rest}) of dist/main.js, same DATA_DIR`);
    // The first start of the cached variant writes the cache: measured apart, as the cold start.
    const cold = await startOnce(variants[variants.length - 1], dataDir);
    const samples = new Map<string, Sample[]>(variants.map((v) => [v.label, []]));
    for (let round = 1; round <= rounds; round++) {
      // Alternating order, so a drift in the machine's load falls on every variant alike.
      const order = round % 2 === 0 ? [...variants].reverse() : variants;
      for (const variant of order) {
        const sample = await startOnce(variant, dataDir);
        samples.get(variant.label)!.push(sample);
        console.log(`  round ${round}, ${variant.label}: ${describe(sample)}`);
      }
    }
    const width = 48;
    const heading = `${'ready'.padStart(10)}${'CPU to ready'.padStart(14)}${'idle RSS'.padStart(10)}`;
    console.log(`  ${'runtime'.padEnd(width)}${heading}  (medians; each round's ready)`);
    for (const variant of variants) {
      const list = samples.get(variant.label)!;
      const ready = median(list.map((s) => s.readyMs));
      const cpu = median(list.map((s) => s.cpuMs));
      const rss = median(list.map((s) => s.rssBytes));
      const each = list.map((s) => `${Math.round(s.readyMs)}`).join(' ');
      const ms = (value: number, width: number) => `${Math.round(value)} ms`.padStart(width);
      const columns = `${ms(ready, 10)}${ms(cpu, 14)}${mib(rss).padStart(10)}`;
      console.log(`  ${variant.label.padEnd(width)}${columns}  ${each}`);
    }
    console.log(`  (compile cache cold, writing it: ${describe(cold)})`);
    if (!existsSync(cache)) console.log('  note: no compile cache was written');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
