import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { askedJob, createJobs, repeatingJob, untilDone, type Job } from './jobs.ts';

/** Waits until `ready()` holds (timers may run late on a busy machine), at most two seconds. */
async function until(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 5) {
    if (waited > 2000) throw new Error('timed out');
    await sleep(5);
  }
}

test('a repeating job runs first after firstMs, then every everyMs, and not after it stops', async () => {
  let runs = 0;
  const job = repeatingJob('count', { everyMs: 20, firstMs: 5 }, async () => {
    runs += 1;
  });
  job.start();
  assert.equal(runs, 0, 'nothing before firstMs');
  await until(() => runs >= 2);
  await job.stop();
  const stopped = runs;
  await sleep(60);
  assert.equal(runs, stopped, 'no run after stop');
});

test('a tick while the previous run is going is skipped, and stop waits for the run in progress', async () => {
  let started = 0;
  let finished = 0;
  const job = repeatingJob('slow', { everyMs: 5, firstMs: 1 }, async () => {
    started += 1;
    await sleep(50);
    finished += 1;
  });
  job.start();
  await until(() => started === 1);
  await sleep(30);
  if (finished === 0) assert.equal(started, 1, 'no second run while the first is going');
  await job.stop();
  assert.equal(finished, started, 'stop resolved after the run in progress finished');
});

test('a catching-up run takes a step each time until one finds nothing, then no more', async () => {
  const found = [3, 1, 0, 5];
  let steps = 0;
  const run = untilDone(async () => found[steps++]!);
  for (let i = 0; i < 6; i++) await run();
  assert.equal(steps, 3, 'the steps up to the first that found nothing');
});

test('the jobs start together and stop together, even when one fails to stop', async () => {
  const events: string[] = [];
  const job = (name: string, failing = false): Job => ({
    name,
    start: () => events.push(`start ${name}`),
    stop: async () => {
      events.push(`stop ${name}`);
      if (failing) throw new Error('cannot stop');
    },
  });
  const jobs = createJobs([job('a', true), job('b')]);
  assert.deepEqual(jobs.names, ['a', 'b']);
  jobs.start();
  await jobs.stop();
  assert.deepEqual(events, ['start a', 'start b', 'stop a', 'stop b']);
});

test('an asked job runs once for the asks of its delay, again for one while it runs; stop runs it', async () => {
  let runs = 0;
  let release = () => {};
  const job = askedJob('asked', 20, async () => {
    runs += 1;
    await new Promise<void>((resolve) => (release = resolve));
  });
  job.ask();
  job.ask();
  await until(() => runs === 1);
  release();
  job.ask();
  await until(() => runs === 2);
  release();
  await job.flush();
  assert.equal(runs, 2, 'the asks before a run share it');
  job.ask();
  const stopping = job.stop();
  await until(() => runs === 3);
  release();
  await stopping;
  job.ask();
  await sleep(60);
  assert.equal(runs, 3, 'the stop ran what was asked at once; nothing is asked after it');
});

test('a held asked job waits for every release, then runs once; a flush runs it while held', async () => {
  let runs = 0;
  const job = askedJob('held', 10, async () => {
    runs += 1;
  });
  job.ask();
  const first = job.hold();
  const second = job.hold();
  assert.equal(job.held, true);
  job.ask();
  await sleep(60);
  assert.equal(runs, 0, 'neither the ask before the hold nor the one during it ran');
  first();
  first();
  await sleep(60);
  assert.equal(runs, 0, 'one holder left');
  second();
  assert.equal(job.held, false);
  await until(() => runs === 1);
  await sleep(60);
  assert.equal(runs, 1, 'the release asked for one run');
  const third = job.hold();
  await job.flush();
  assert.equal(runs, 2, 'a flush runs what is held');
  await job.stop();
  third();
  await sleep(60);
  assert.equal(runs, 2, 'nothing after the stop');
});
