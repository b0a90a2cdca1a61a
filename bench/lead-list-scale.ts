/**
 * `npm run bench -- lead-list`: `GET /leads` (first page, and a page deep in the list) for one
 * company holding 1k, 10k and 100k leads, seeded through the leads repository (copies of a lead
 * created through the API, each with its own id and creation time). On PostgreSQL (DATABASE_URL,
 * default the local test server; a fresh schema), through one listening service in this process.
 */
import autocannon from 'autocannon';
import { newId } from '../src/shared/ids.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { benchConfig, containerFor, listen, partnerToken } from './service.ts';

const api = '/mx/b2b/autofin/api';
const sizes = [1_000, 10_000, 100_000];

export async function leadListScale(): Promise<void> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  const database = await createTestDatabase();
  const container = await containerFor(benchConfig(), database.db);
  await container.prepare();
  const { app, base } = await listen(container, 'info');
  try {
    const token = await partnerToken(app);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await app.inject({ method: 'POST', url: `${api}/leads`, headers, payload: {} });
    const { id } = created.json() as { id: string };
    await app.inject({ method: 'PUT', url: `${api}/leads/${id}/loan-info`, headers, payload: { downPayment: 80000, term: 48, purchaseIntention: 'WITHIN_A_MONTH' } });
    const companyId = (await container.auth.authenticate(headers.authorization)).companyId;
    const template = (await container.leadsRepository.find(id, companyId))!;
    console.log(`\nGET /leads?limit=20 of one company on PostgreSQL, autocannon 5 connections for 3 s`);
    console.log(`  ${'leads'.padStart(8)}${'seed s'.padStart(9)}${'page'.padStart(12)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'non-2xx'.padStart(9)}`);
    let count = 1;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (const size of sizes) {
      const seedStart = performance.now();
      const insertOne = async (n: number) => {
        const at = new Date(t0 + n * 1000);
        const leadId = newId();
        const { verification: _v, prequalification: _p, ...row } = template;
        await container.leadsRepository.insert(
          { ...row, id: leadId, created_at: at, updated_at: at },
          { id: newId(), leadId, type: 'created', at, actor: 'bench', fields: [] },
          { id: newId(), type: 'lead.created' },
        );
      };
      while (count < size) {
        const batch = [];
        for (let k = 0; k < 32 && count < size; k++) batch.push(insertOne(count++));
        await Promise.all(batch);
      }
      const seedSeconds = (performance.now() - seedStart) / 1000;
      await database.db.query('analyze leads');
      const first = `${base}${api}/leads?limit=20`;
      const middle = Buffer.from(`${new Date(t0 + (size / 2) * 1000).toISOString()}|ffffffff-ffff-ffff-ffff-ffffffffffff`).toString('base64url');
      for (const [page, url] of [['first', first], ['middle', `${first}&cursor=${middle}`]] as const) {
        await autocannon({ url, headers, connections: 5, duration: 1, workers: 1 });
        const r = await autocannon({ url, headers, connections: 5, duration: 3, workers: 1 });
        console.log(`  ${size.toLocaleString('en').padStart(8)}${seedSeconds.toFixed(1).padStart(9)}${page.padStart(12)}${Math.round(r.requests.average).toLocaleString('en').padStart(8)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}${String(r.non2xx).padStart(9)}`);
      }
    }
  } finally {
    await app.close();
    await container.close();
    await database.drop();
  }
}
