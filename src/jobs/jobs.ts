/**
 * The service's background work, started and stopped in one place: the process starts the jobs once
 * it serves and stops them before the database closes. Each module offers its own jobs.
 */

/** One piece of background work. */
export interface Job {
  readonly name: string;
  start(): void;
  /** Ends the work; resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

/**
 * The run of a job that catches up with work left by an earlier version: each run takes one `step`, which
 * answers how much it found, until a step finds nothing; from then on a run does nothing.
 */
export function untilDone(step: () => Promise<number>): () => Promise<void> {
  let done = false;
  return async () => {
    if (!done) done = (await step()) === 0;
  };
}

/**
 * A job that runs `run` after `firstMs` (default `everyMs`), then every `everyMs`. A tick while the
 * previous run is still going is skipped. Its timers never keep the process alive; `run` reports
 * its own failures.
 */
export function repeatingJob(
  name: string,
  schedule: { everyMs: number; firstMs?: number },
  run: () => Promise<unknown>,
): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    running ??= run().finally(() => (running = undefined));
  };
  return {
    name,
    start() {
      if (timer) return;
      timer = setTimeout(() => {
        tick();
        timer = setInterval(tick, schedule.everyMs);
        timer.unref();
      }, schedule.firstMs ?? schedule.everyMs);
      timer.unref();
    },
    async stop() {
      clearTimeout(timer);
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

/**
 * A job that runs `run` when asked: once, `delayMs` after the first of any number of asks; an ask while it
 * runs makes one more run after it. `flush` and `stop` run an asked-for run at once and wait for it.
 *
 * `hold` keeps the timer from running it until the function it returns is called (by every holder): a
 * hold counts as an ask, made again at its release, and `flush` and `stop` run it even while held.
 */
export function askedJob(
  name: string,
  delayMs: number,
  run: () => Promise<unknown>,
): Job & { ask(): void; flush(): Promise<void>; hold(): () => void; readonly held: boolean } {
  let timer: NodeJS.Timeout | undefined;
  let runs: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let holds = 0;
  /** Asked, and waiting for the holds' release (no timer meanwhile). */
  let waiting = false;
  const fire = () => {
    clearTimeout(timer);
    timer = undefined;
    waiting = false;
    runs = runs.then(run);
  };
  const flush = async () => {
    if (timer || waiting) fire();
    await runs;
  };
  const ask = () => {
    // Once stopped (the database closing), what is left is recorded for the job's next run.
    if (timer || stopped) return;
    if (holds > 0) {
      waiting = true;
      return;
    }
    timer = setTimeout(fire, delayMs);
    timer.unref();
  };
  return {
    name,
    ask,
    flush,
    hold() {
      holds++;
      // A run the timer was about to start waits for the release too.
      clearTimeout(timer);
      timer = undefined;
      waiting = !stopped;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        waiting = false;
        ask();
      };
    },
    get held() {
      return holds > 0;
    },
    start() {},
    async stop() {
      stopped = true;
      await flush();
    },
  };
}

export interface Jobs {
  readonly names: readonly string[];
  start(): void;
  /** Stops every job; resolves once all have stopped. */
  stop(): Promise<void>;
}

export function createJobs(jobs: readonly Job[]): Jobs {
  return {
    names: jobs.map((job) => job.name),
    start() {
      for (const job of jobs) job.start();
    },
    async stop() {
      await Promise.allSettled(jobs.map((job) => job.stop()));
    },
  };
}
