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
  /** The same per PostgreSQL process: a delta counts only processes alive at the end (backends come and go). */
  postgresByPid: Map<string, number>;
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

/** CPU seconds a process has used so far, all its threads (0 once it is gone). */
export const processCpuSeconds = (pid: number): number => cpuSeconds(`/proc/${pid}/stat`);

/**
 * CPU seconds (user + system) of this process's children that have ended and been reaped so far
 * (`cutime + cstime`): what a child such as a load generator used, read once it has exited.
 */
export function endedChildrenCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
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
  const postgresByPid = new Map(postgresPids().map((pid) => [pid, cpuSeconds(`/proc/${pid}/stat`)]));
  const postgres = [...postgresByPid.values()].reduce((sum, seconds) => sum + seconds, 0);
  // cpu user nice system idle iowait irq softirq steal
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    mainThread,
    otherThreads,
    postgres,
    postgresByPid,
    machineBusy: (user + nice + system + irq + softirq) / ticksPerSecond,
    steal: steal / ticksPerSecond,
  };
}

/** CPU seconds the PostgreSQL processes used between two snapshots (a process started meanwhile counts whole). */
export function postgresSecondsBetween(before: CpuSnapshot, after: CpuSnapshot): number {
  let seconds = 0;
  for (const [pid, now] of after.postgresByPid) seconds += now - (before.postgresByPid.get(pid) ?? 0);
  return seconds;
}

/** CPU microseconds per request of each part between two snapshots. */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuSnapshot {
  type Seconds = Exclude<keyof CpuSnapshot, 'postgresByPid'>;
  const per = (key: Seconds) => ((after[key] - before[key]) * 1e6) / Math.max(1, requests);
  return {
    mainThread: per('mainThread'),
    otherThreads: per('otherThreads'),
    postgres: (postgresSecondsBetween(before, after) * 1e6) / Math.max(1, requests),
    postgresByPid: new Map(),
    machineBusy: per('machineBusy'),
    steal: per('steal'),
  };
}
