/**
 * The export streams with constant memory. Leads are seeded straight into the database (set-based
 * INSERTs, not HTTP) and exported over a real socket in both formats, lines counted and discarded as
 * they arrive. The process's peak RSS growth over the whole export is compared with its peak growth
 * by the time a tenth of the rows had arrived: buffered, it would grow about tenfold.
 *
 * `npm test` runs it with 1,000 leads, `npm run test:reliability` with 10,000, and
 * `npm run test:export-memory` with 100,000
 * (EXPORT_TEST_LEADS), on the engine DATABASE_URL selects, and prints the figures.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminToken, buildTestApp, type TestApp } from '../../test/helper.ts';
import { seedLeads } from '../../test/lead-seed.ts';
import { atVolume } from '../../test/volume.ts';

const count = Number(process.env.EXPORT_TEST_LEADS ?? atVolume(1_000, 10_000));
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

interface Measure {
  status: number;
  lines: number;
  /** Peak RSS growth by the time a tenth of the lines had arrived, and over the whole export. */
  growthAtTenth: number;
  growth: number;
}

function exportAndMeasure(base: string, query: string): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const startRss = process.memoryUsage.rss();
    let peak = startRss;
    let growthAtTenth = -1;
    const sample = () => {
      peak = Math.max(peak, process.memoryUsage.rss());
    };
    const sampler = setInterval(sample, 10);
    const req = request(
      `${base}/admin/leads/export?${query}`,
      { headers: { authorization: `Bearer ${adminToken}` } },
      (res) => {
        let lines = 0;
        res.on('data', (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          sample();
          if (growthAtTenth < 0 && lines >= count / 10) growthAtTenth = peak - startRss;
        });
        res.on('end', () => {
          clearInterval(sampler);
          sample();
          resolve({ status: res.statusCode ?? 0, lines, growthAtTenth, growth: peak - startRss });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe(`exporting ${count} leads`, { timeout: 1_200_000 }, () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    await seedLeads({ db: t.container.db, sealer: t.leads.sealer }, t.partner.companyId, count);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // One export of the newest 500 leads in each format first: what the first export of a process grows
    // once (the compiled code, the embedded engine's memory for a page of rows) is not counted as growth
    // with the rows, nor only in the format measured first.
    const newest = new Date(Date.now() - 500 * 1000).toISOString();
    for (const format of ['ndjson', 'csv']) {
      const warm = await exportAndMeasure(
        base,
        `format=${format}&companyId=${t.partner.companyId}&createdFrom=${newest}`,
      );
      assert.equal(warm.status, 200);
    }
  });
  after(() => t.close());

  for (const format of ['ndjson', 'csv'] as const) {
    test(`${format}: every row arrives, audited, and peak RSS growth does not grow with the rows sent`, async (ctx) => {
      const header = format === 'csv' ? 1 : 0;
      const run = await exportAndMeasure(base, `format=${format}&companyId=${t.partner.companyId}`);
      assert.equal(run.status, 200);
      assert.equal(run.lines, count + header);
      const report =
        `${format}, ${count} leads, ${t.database.db.engine}: peak RSS +${mb(run.growthAtTenth)} ` +
        `MB after ${count / 10} rows, +${mb(run.growth)} MB after ${count}`;
      ctx.diagnostic(report);
      if (process.env.EXPORT_TEST_LEADS) console.log(report);
      // Buffered, the output alone (about 600 bytes a row) would add tens of MB per 100,000 rows.
      assert.ok(run.growth < run.growthAtTenth + 32 * 1024 * 1024, report);
      const audit = await t.database.db.query<{ row_count: number; filter: { format: string } }>(
        "select row_count, filter from audit_records where action = 'leads.export' order by seq desc limit 1",
      );
      assert.deepEqual([audit.rows[0].row_count, audit.rows[0].filter.format], [count, format]);
    });
  }
});
