/**
 * The document and the service cannot drift apart: a client is generated (openapi-typescript) from
 * the document a listening service serves, the partner flow written against it
 * (openapi-client/partner-flow.ts, openapi-fetch) must compile with tsc, and then it runs against
 * that service: token, lead, every section, PIN send and confirmation, the lead read back. The
 * request bodies are the document's own examples, so they must work against the sandbox as they are.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { api, buildTestApp, type TestApp } from '../helper.ts';
import { pinFrom } from '../lead-fixture.ts';
import { sandboxAffiliateId } from '../../src/companies/companies.service.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const flowSource = fileURLToPath(new URL('./openapi-client/partner-flow.ts', import.meta.url));

/** partner-flow.ts's export as the test sees it (its own types exist only beside the generated schema). */
type PartnerFlow = (
  baseUrl: string,
  credentials: { consumer_key: string; consumer_secret: string },
  bodies: Record<string, unknown>,
  readPin: (leadId: string) => Promise<string>,
) => Promise<{
  leadId: string;
  location: string | null;
  statuses: Record<string, number>;
  unknownZip: { status: number; code: number };
  zip: { zipCode: string };
  lead: {
    id: string;
    status: string;
    warnings: unknown[];
    affiliate: { user_id: string | null } | null;
    person: { rfc: string } | null;
    verification: { channel: string; verifiedAt: string | null } | null;
    prequalification: { decision: string } | null;
  };
}>;

interface Document {
  components: { schemas: Record<string, { examples?: unknown[] }> };
}

describe('a client generated from the served OpenAPI document', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  let document: Document;
  let credential: { consumer_key: string; consumer_secret: string };

  before(async () => {
    t = await buildTestApp();
    const seeded = await t.container.companies.seedSandbox();
    assert.ok(seeded, 'the sandbox demo company was seeded');
    credential = seeded.credential;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const served = await fetch(`${baseUrl}${api}/openapi.json`);
    assert.equal(served.status, 200);
    document = (await served.json()) as Document;

    dir = mkdtempSync(join(tmpdir(), 'autofin-client-'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(document as never)));
    copyFileSync(flowSource, join(dir, 'partner-flow.ts'));
  });
  after(async () => {
    await t.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the generated types and the flow written against them compile with tsc', () => {
    const program = ts.createProgram([join(dir, 'partner-flow.ts')], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const report = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => dir,
      getNewLine: () => '\n',
    });
    assert.equal(diagnostics.length, 0, report);
  });

  test('the flow runs against the service with the document’s own examples', async () => {
    const example = (name: string) => {
      const value = document.components.schemas[name]?.examples?.[0];
      assert.ok(value, `${name} has no example`);
      return value;
    };
    const bodies = {
      createLead: example('LeadCreateRequest'),
      contactInfo: example('PublicContactInfoPayload'),
      loanInfo: example('LoanInfoPayload'),
      address: example('AddressPayload'),
      vehicle: example('AutoLeadPayload'),
      financial: example('FinancialPayload'),
      person: example('PersonPayload'),
      pinSend: example('NipSendRequest'),
    };
    const { partnerFlow } = (await import(pathToFileURL(join(dir, 'partner-flow.ts')).href)) as {
      partnerFlow: PartnerFlow;
    };
    const sent = t.outbox.sms.length;
    const result = await partnerFlow(baseUrl, credential, bodies, async () => {
      assert.equal(t.outbox.sms.length, sent + 1, 'one SMS was sent');
      return pinFrom(t.outbox.sms.at(-1)!);
    });

    assert.deepEqual(result.statuses, {
      token: 200,
      createLead: 201,
      contactInfo: 204,
      loanInfo: 204,
      address: 200,
      vehicle: 204,
      financial: 200,
      person: 200,
      pinSend: 204,
      confirm: 204,
      read: 200,
    });
    assert.equal(result.location, `${api}/leads/${result.leadId}`);
    const { lead } = result;
    assert.equal(lead.id, result.leadId);
    assert.equal(lead.affiliate?.user_id, sandboxAffiliateId);
    assert.equal(lead.person?.rfc, (bodies.person as { rfc: string }).rfc);
    assert.deepEqual(lead.warnings, [], 'the example RFC has a valid check digit');
    assert.equal(lead.verification?.channel, 'SMS');
    assert.ok(lead.verification?.verifiedAt, 'verified');
    assert.ok(['PREQUALIFIED', 'NOT_PREQUALIFIED'].includes(lead.status), lead.status);
    assert.equal(lead.prequalification?.decision, lead.status);
    assert.equal(result.zip.zipCode, (bodies.address as { zipCode: string }).zipCode);
    assert.deepEqual(result.unknownZip, { status: 404, code: 4042 });
  });
});
