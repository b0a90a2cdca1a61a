import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contractBody, createHttpBureau } from './http-bureau.ts';
import { createOutbound } from '../providers/outbound.ts';
import type { BureauReport, BureauSubject } from './report.ts';

const subject: BureauSubject = {
  rfc: 'GODE561231GR8',
  firstName: 'Juan',
  secondName: '',
  lastName: 'Pérez',
  secondLastName: 'López',
  birthDate: '1956-12-31',
  address: {
    street: 'Av. Insurgentes Sur',
    number: '1000',
    interior: null,
    zipCode: '03100',
    neighborhood: 'Del Valle Centro',
    municipality: 'Benito Juárez',
    state: 'Ciudad de México',
    city: 'Ciudad de México',
    stateId: '09',
  },
};

const report: BureauReport = {
  provider: 'gateway-test',
  folio: 'F-000123',
  queriedAt: '2026-01-15T12:00:00.000Z',
  recordFound: true,
  score: 712,
  accounts: [
    {
      type: 'CREDIT_CARD',
      lender: 'Banco Uno',
      openedAt: '2019-04-01',
      creditLimit: 50000,
      balance: 12000,
      monthlyPayment: 1500,
      worstDelinquencyDays: 30,
      worstDelinquencyDate: '2024-06-30',
    },
  ],
  inquiries: [{ date: '2025-11-02', lender: 'Financiera Dos' }],
};

interface Received {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function fakeGateway(respond: (res: ServerResponse) => void) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      respond(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, received, close: () => stop(server) };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const reply = (status: number, body: unknown) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Runs one query against a gateway answering with `respond`, closing everything afterwards. */
async function queryAgainst(respond: (res: ServerResponse) => void, timeoutMs = 2_000) {
  const gateway = await fakeGateway(respond);
  const bureau = createHttpBureau({ baseUrl: gateway.origin });
  try {
    const result = await createOutbound({ timeoutMs }).call('bureau', (signal) => bureau.query(subject, signal));
    return { result, received: gateway.received };
  } finally {
    await bureau.close();
    await gateway.close();
  }
}

test('a 200 with a valid report is ok, and the gateway receives the subject as JSON', async () => {
  const { result, received } = await queryAgainst(reply(200, report));
  assert.deepEqual(result, { ok: true, value: { report, raw: JSON.stringify(report) } });
  assert.equal(received[0].method, 'POST');
  assert.equal(received[0].url, '/v1/reports');
  assert.match(String(received[0].headers['content-type']), /^application\/json/);
  const {
    address: { city: _c, stateId: _s, ...address },
    ...person
  } = subject;
  assert.deepEqual(JSON.parse(received[0].body), { ...person, address }, "only the contract's fields are sent");
  assert.deepEqual(contractBody(subject), { ...person, address });
});

test('a 200 with no record found is ok with an empty report', async () => {
  const none = { ...report, recordFound: false, score: null, accounts: [], inquiries: [] };
  assert.deepEqual((await queryAgainst(reply(200, none))).result, {
    ok: true,
    value: { report: none, raw: JSON.stringify(none) },
  });
});

test('fields outside the contract are dropped from the report', async () => {
  const extended = {
    ...report,
    rawGatewayPayload: { huge: true },
    accounts: [{ ...report.accounts[0], internalId: 7 }],
  };
  assert.deepEqual((await queryAgainst(reply(200, extended))).result, {
    ok: true,
    value: { report, raw: JSON.stringify(extended) },
  });
});

test('a report with an invalid shape or a body that is not JSON is an error', async () => {
  const invalid = [
    { ...report, score: '712' },
    { ...report, score: 900 },
    { ...report, recordFound: false },
    { ...report, accounts: [{ ...report.accounts[0], balance: -1 }] },
    { ...report, inquiries: [{ date: '02/11/2025', lender: 'X' }] },
    { ...report, inquiries: [{ date: '2025-02-30', lender: 'X' }] },
    { ...report, folio: undefined },
    [report],
  ];
  for (const body of invalid) {
    const { result } = await queryAgainst(reply(200, body));
    assert.deepEqual(result, { ok: false, kind: 'error', detail: 'report has an invalid shape' }, JSON.stringify(body));
  }
  assert.deepEqual((await queryAgainst(reply(200, '<html>'))).result, {
    ok: false,
    kind: 'error',
    detail: 'report is not JSON',
  });
});

test('a report over 1 MiB is an error', async () => {
  const big = { ...report, padding: 'x'.repeat(1024 * 1024) };
  assert.deepEqual((await queryAgainst(reply(200, big))).result, {
    ok: false,
    kind: 'error',
    detail: 'report too large',
  });
});

test('4xx answers (404 included) are rejected; 5xx and unexpected statuses are errors', async () => {
  const cases = [
    [400, 'rejected'],
    [404, 'rejected'],
    [422, 'rejected'],
    [500, 'error'],
    [503, 'error'],
    [204, 'error'],
  ] as const;
  for (const [status, kind] of cases) {
    const respond =
      status === 204
        ? (res: ServerResponse) => {
            res.writeHead(204);
            res.end();
          }
        : reply(status, { error: 'x' });
    const { result } = await queryAgainst(respond);
    assert.deepEqual(result, { ok: false, kind, detail: `HTTP ${status}` });
  }
});

test('a gateway that never answers is a timeout within the limit', async (t) => {
  const started = performance.now();
  const { result } = await queryAgainst(() => {
    /* never answers */
  }, 200);
  const elapsed = performance.now() - started;
  assert.equal(!result.ok && result.kind, 'timeout');
  assert.ok(elapsed < 1_000, `answered after ${elapsed.toFixed(0)} ms`);
  t.diagnostic(`hanging bureau answered timeout after ${elapsed.toFixed(0)} ms`);
});

test('an unreachable gateway is a timeout', async () => {
  const gateway = await fakeGateway(reply(200, report));
  await gateway.close();
  const bureau = createHttpBureau({ baseUrl: gateway.origin });
  const result = await createOutbound({ timeoutMs: 2_000 }).call('bureau', (signal) => bureau.query(subject, signal));
  await bureau.close();
  assert.deepEqual(result, { ok: false, kind: 'timeout', detail: 'ECONNREFUSED' });
});

test('a base path is kept, and credentials in BUREAU_URL become Basic auth', async () => {
  const gateway = await fakeGateway(reply(200, report));
  const base = gateway.origin.replace('http://', 'http://autofin:p%40ss@');
  const bureau = createHttpBureau({ baseUrl: `${base}/gateway/` });
  try {
    assert.equal((await bureau.query(subject, AbortSignal.timeout(2_000))).ok, true);
  } finally {
    await bureau.close();
    await gateway.close();
  }
  assert.equal(gateway.received[0].url, '/gateway/v1/reports');
  assert.equal(gateway.received[0].headers.authorization, `Basic ${Buffer.from('autofin:p@ss').toString('base64')}`);
});
