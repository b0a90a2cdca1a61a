/**
 * Test helpers of the document routes: a lead whose decision is CONDITIONED (a copy of a verified
 * lead), its conditions' ids, an upload, a review and the reads a partner and a lender make.
 */
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { api, show, type TestApp } from './helper.ts';
import { leadCopies, setOutcome, type LeadCopies } from './outcome-fixture.ts';
import { uploadForm } from './document-files.ts';

export const twoConditions = {
  status: 'CONDITIONED',
  conditions: [
    { code: 'PROOF_OF_INCOME', description: 'Últimos 3 recibos de nómina' },
    { code: 'OFFICIAL_ID', description: 'INE vigente por ambos lados' },
  ],
};

export interface DocumentFixture {
  /** A new CONDITIONED lead of the app's partner and its conditions' ids, in order. */
  conditionedLead(body?: object): Promise<{ leadId: string; conditionIds: string[] }>;
  copy: LeadCopies;
  upload(
    leadId: string,
    conditionId: string,
    file: { fileName: string; data: Buffer; contentType?: string },
    options?: { type?: string; headers?: Record<string, string>; boundary?: string },
  ): Promise<LightMyRequestResponse>;
  review(
    leadId: string,
    documentId: string,
    body: object,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** The partner's view of the lead's conditions. */
  conditions(leadId: string): Promise<{ id: string; code: string; status: string }[]>;
}

export async function documentFixture(t: TestApp): Promise<DocumentFixture> {
  const copy = await leadCopies(t);
  const fixture: DocumentFixture = {
    copy,
    async conditionedLead(body = twoConditions) {
      const leadId = await copy();
      const res = await setOutcome(t, leadId, body);
      assert.equal(res.statusCode, 200, show(res));
      return { leadId, conditionIds: (res.json().conditions as { id: string }[]).map((c) => c.id) };
    },
    upload(leadId, conditionId, file, options = {}) {
      const form = uploadForm(conditionId, file, options.type, options.boundary);
      return t.app.inject({
        method: 'POST',
        url: `${api}/leads/${leadId}/documents`,
        payload: form.payload,
        headers: { ...t.partner.headers, ...options.headers, ...form.headers },
      });
    },
    review(leadId, documentId, body, headers = t.admin) {
      return t.app.inject({
        method: 'POST',
        url: `/admin/leads/${leadId}/documents/${documentId}/review`,
        headers,
        payload: body,
      });
    },
    async conditions(leadId) {
      const res = await t.app.inject({ method: 'GET', url: `${api}/leads/${leadId}`, headers: t.partner.headers });
      assert.equal(res.statusCode, 200, show(res));
      return res.json().outcome.conditions;
    },
  };
  return fixture;
}
