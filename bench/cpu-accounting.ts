/**
 * Where the machine's CPU goes during a load run (Linux only, read from /proc): this process's main
 * thread (the service), its other threads (load generator, garbage collector, I/O), the local
 * PostgreSQL server processes, and the machine as a whole. Answers undefined where /proc is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const ticksPerSecond = 100;

export interface CpuSnapshot {
  mainThread: number;
  otherThreads: number;
  postgres: number;
  /** Seconds the machine's CPUs were busy (not idle, not waiting on I/O) and taken by the host. */
  machineBusy: number;
  steal: number;
}

/** utime + stime of a /proc stat file, in seconds (0 when the task is gone). */
function cpuSeconds(statFile: string): number {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** CPU seconds of the calling thread so far (undefined without /proc). */
export function currentThreadCpuSeconds(): number | undefined {
  return existsSync('/proc/thread-self/stat') ? cpuSeconds('/proc/thread-self/stat') : undefined;
}

function postgresPids(): string[] {
  try {
    return execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

export function cpuSnapshot(): CpuSnapshot | undefined {
  if (!existsSync('/proc/self/task') || !existsSync('/proc/stat')) return undefined;
  let mainThread = 0;
  let otherThreads = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    const seconds = cpuSeconds(`/proc/self/task/${tid}/stat`);
    if (tid === String(process.pid)) mainThread = seconds;
    else otherThreads += seconds;
  }
  const postgres = postgresPids().reduce((sum, pid) => sum + cpuSeconds(`/proc/${pid}/stat`), 0);
  // cpu user nice system idle iowait irq softirq steal
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return {
    mainThread,
    otherThreads,
    postgres,
    machineBusy: (user + nice + system + irq + softirq) / ticksPerSecond,
    steal: steal / ticksPerSecond,
  };
}

/** CPU microseconds per request of each part between two snapshots. */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuSnapshot {
  const per = (key: keyof CpuSnapshot) => ((after[key] - before[key]) * 1e6) / Math.max(1, requests);
  return { mainThread: per('mainThread'), otherThreads: per('otherThreads'), postgres: per('postgres'), machineBusy: per('machineBusy'), steal: per('steal') };
}
