/**
 * Seeds many leads straight into the database (not through HTTP), sealed with the service's own
 * sealer so they decrypt like real ones: each batch is one set-based INSERT over unnest() arrays.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/index.ts';
import type { LeadStore } from './lead-store.ts';

export async function seedLeads(
  store: { db: Db; sealer: LeadStore['sealer'] },
  companyId: string,
  count: number,
  batch = 5000,
): Promise<void> {
  const start = Date.now() - count * 1000;
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    const ids: string[] = [];
    const phones: string[] = [];
    const emails: string[] = [];
    const persons: string[] = [];
    const created: string[] = [];
    for (let i = 0; i < n; i++) ids.push(randomUUID());
    await store.sealer.forWritingAll(ids);
    for (let i = 0; i < n; i++) {
      const k = done + i;
      const id = ids[i]!;
      phones.push(store.sealer.seal(id, 'phone_enc', `55${String(k).padStart(8, '0')}`));
      emails.push(store.sealer.seal(id, 'email_enc', `persona${k}@example.com`));
      persons.push(
        store.sealer.seal(id, 'person_enc', {
          firstName: 'Persona',
          secondName: '',
          lastName: `Prueba${k}`,
          secondLastName: 'Carga',
          rfc: 'SAND850412A16',
          birthDate: '1985-04-12',
        }),
      );
      created.push(new Date(start + k * 1000).toISOString());
    }
    await store.db.query(
      `insert into leads (id, company_id, status, loan_info, vehicle, phone_enc, email_enc, person_enc, prequalification, created_at, updated_at)
       select s.id, $1, 'PREQUALIFIED', '{"downPayment":100000,"term":48}'::jsonb,
         '{"id":371234,"price":340000,"year":2024,"brand":{"id":"1","name":"Marca"},"model":{"id":"2","name":"Modelo"},"version":"Base"}'::jsonb,
         s.phone, s.email, s.person,
         '{"decision":"PREQUALIFIED","reasons":[],"offer":null,"evaluatedAt":"2026-01-15T12:00:00.000Z"}'::jsonb, s.created, s.created
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) as s(id, phone, email, person, created)`,
      [companyId, ids, phones, emails, persons, created],
    );
  }
}
