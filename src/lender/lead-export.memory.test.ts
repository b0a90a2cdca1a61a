/**
 * The export streams with constant memory: 100,000 leads (seeded straight into the database) are
 * exported over a real socket in both formats, lines counted and discarded as they arrive, and the
 * process's peak RSS growth is compared with that of a 10,000-lead export.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminToken, buildTestApp, type TestApp } from '../../test/helper.ts';
import { seedLeads } from '../../test/lead-seed.ts';

const small = 10_000;
const large = Number(process.env.EXPORT_TEST_LEADS ?? 100_000);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Streams the export, counting lines; answers the count and the peak RSS growth while it ran. */
function exportAndMeasure(base: string, query: string): Promise<{ lines: number; rssGrowth: number; status: number }> {
  return new Promise((resolve, reject) => {
    const startRss = process.memoryUsage().rss;
    let peak = startRss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const req = request(`${base}/admin/leads/export?${query}`, { headers: { authorization: `Bearer ${adminToken}` } }, (res) => {
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => {
        clearInterval(sampler);
        resolve({ lines, rssGrowth: Math.max(peak, process.memoryUsage().rss) - startRss, status: res.statusCode ?? 0 });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('exporting 100,000 leads', { timeout: 600_000 }, () => {
  let t: TestApp;
  let base: string;
  let otherCompany: string;
  before(async () => {
    t = await buildTestApp();
    otherCompany = (await t.newPartner()).companyId;
    await seedLeads(t.container, t.partner.companyId, large);
    await seedLeads(t.container, otherCompany, small);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  for (const format of ['ndjson', 'csv'] as const) {
    test(`${format}: every row arrives and peak RSS growth does not grow with the count`, async (ctx) => {
      const header = format === 'csv' ? 1 : 0;
      // A first run warms up code paths and the database cache, so both measured runs start alike.
      await exportAndMeasure(base, `format=${format}&companyId=${otherCompany}`);
      const few = await exportAndMeasure(base, `format=${format}&companyId=${otherCompany}`);
      const many = await exportAndMeasure(base, `format=${format}&companyId=${t.partner.companyId}`);
      assert.equal(few.status, 200);
      assert.equal(few.lines, small + header);
      assert.equal(many.lines, large + header);
      ctx.diagnostic(`${format}: ${small} leads peak RSS +${mb(few.rssGrowth)} MB; ${large} leads peak RSS +${mb(many.rssGrowth)} MB`);
      // Buffered, 100,000 lines (about 60 MB of output) would add far more than this.
      assert.ok(many.rssGrowth < few.rssGrowth + 48 * 1024 * 1024, `${mb(few.rssGrowth)} MB vs ${mb(many.rssGrowth)} MB`);
      const audit = await t.database.db.query<{ row_count: number }>(
        "select row_count from audit_records where action = 'leads.export' order by seq desc limit 1",
      );
      assert.equal(audit.rows[0].row_count, large);
    });
  }
});
