/**
 * The webhook section of `npm run bench`: delivery lag from a lead change to a local receiver's
 * 2xx, while partners create and fill leads. Each event's body carries the time of its change
 * (`timestamp`, taken in the change's transaction); the lag is the receiver's arrival time minus
 * that, so it spans the commit, the worker's next poll, signing and the HTTP round trip.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchContext } from './run.ts';
import { measureLeadWrites } from './lead-writes.ts';
import { writeConcurrency } from './write-path.ts';

const api = '/mx/b2b/autofin/api';
const loadSeconds = 4;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function webhookLag(ctx: BenchContext): Promise<void> {
  const lags: number[] = [];
  const ids = new Set<string>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!ids.has(id)) lags.push(Date.now() - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp));
      ids.add(id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const subscribed = await ctx.app.inject({ method: 'POST', url: `${api}/webhooks`, headers: ctx.partner, payload: { url } });
  if (subscribed.statusCode !== 201) throw new Error(`subscribe: ${subscribed.statusCode} ${subscribed.body}`);
  const worker = ctx.container.webhooks.worker;
  worker.start();
  try {
    const load = await measureLeadWrites(ctx.base, ctx.token, writeConcurrency, loadSeconds);
    // One delivery per change of the run (the only endpoint); writes still in flight when the load
    // stopped may add some: count again until every one written has arrived.
    const written = async () => Number((await ctx.container.db.query<{ n: string }>('select count(*) as n from webhook_deliveries')).rows[0].n);
    let expected = await written();
    const deadline = Date.now() + 60_000;
    while ((lags.length < expected || lags.length < (expected = await written())) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const sorted = [...lags].sort((a, b) => a - b);
    console.log(`\nwebhook delivery lag: change → local receiver's 2xx, one endpoint subscribed to every event, under the lead write load (${writeConcurrency} partners, ${loadSeconds} s, ${ctx.container.db.engine})`);
    const line = (label: string, value: string) => console.log(`  ${label.padEnd(38)}${value.padStart(8)}`);
    line('lead writes per second during the run', Math.round(load.requestsPerSecond).toLocaleString('en'));
    line('events delivered / events written', `${lags.length}/${expected}`);
    line('lag p50 ms', String(percentile(sorted, 50)));
    line('lag p99 ms', String(percentile(sorted, 99)));
    line('lag max ms', String(sorted.at(-1) ?? NaN));
  } finally {
    await worker.stop();
    await new Promise((resolve) => receiver.close(resolve));
  }
}
