import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sharedCirculoKeys } from '../../test/circulo-keys.ts';
import { startFakeCirculo } from '../../test/circulo/fake-circulo.ts';
import { createOutbound } from '../providers/outbound.ts';
import { createManualClock } from '../shared/clock.ts';
import { circuloEndpoint, createCirculoBureau } from './circulo-bureau.ts';
import type { BureauSubject } from './report.ts';

const subject: BureauSubject = {
  rfc: 'SAND850412A16',
  firstName: 'Ana',
  secondName: '',
  lastName: 'López',
  secondLastName: '',
  birthDate: '1985-04-12',
  address: {
    street: 'Reforma',
    number: '10',
    interior: null,
    zipCode: '06600',
    neighborhood: 'Juárez',
    municipality: 'Cuauhtémoc',
    state: 'Ciudad de México',
    city: 'Ciudad de México',
    stateId: '09',
  },
};

test('the operation path is appended to the base URL, keeping a path already in it', () => {
  assert.equal(
    circuloEndpoint('https://services.circulodecredito.com.mx'),
    'https://services.circulodecredito.com.mx/v2/rccficoscore',
  );
  assert.equal(
    circuloEndpoint('https://services.circulodecredito.com.mx/sandbox/'),
    'https://services.circulodecredito.com.mx/sandbox/v2/rccficoscore',
  );
  assert.equal(circuloEndpoint('http://127.0.0.1:8080/sim'), 'http://127.0.0.1:8080/sim/v2/rccficoscore');
});

test('a subject whose address has no catalog state is rejected without calling Círculo', async () => {
  let calls = 0;
  const server = createServer((_req, res) => {
    calls += 1;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const bureau = createCirculoBureau(
    {
      mode: 'simulation',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'k',
      username: null,
      password: null,
      privateKey: null,
      circuloKey: null,
      tls: null,
    },
    createManualClock(),
  );
  try {
    const result = await bureau.query(
      {
        rfc: 'SAND850412A16',
        firstName: 'Ana',
        secondName: '',
        lastName: 'López',
        secondLastName: '',
        birthDate: '1985-04-12',
        address: {
          street: 'Reforma',
          number: '10',
          interior: null,
          zipCode: '06600',
          neighborhood: 'Juárez',
          municipality: 'Cuauhtémoc',
          state: null,
          city: null,
          stateId: null,
        },
      },
      AbortSignal.timeout(2_000),
    );
    assert.deepEqual(result, { ok: false, kind: 'rejected', detail: 'the address has no state of the ZIP catalog' });
    assert.equal(calls, 0);
  } finally {
    await bureau.close();
    server.close();
  }
});

test('simulation mode sends only the API key, signs nothing and reads an unsigned answer', async () => {
  const keys = sharedCirculoKeys();
  const fake = await startFakeCirculo({
    apiKey: 'sim-key',
    lenderPublicKey: null,
    circuloPrivateKey: keys.circuloPrivateKey,
    basePath: '/sandbox',
  });
  const bureau = createCirculoBureau(
    {
      mode: 'simulation',
      baseUrl: fake.baseUrl,
      apiKey: 'sim-key',
      username: null,
      password: null,
      privateKey: null,
      circuloKey: null,
      tls: null,
    },
    createManualClock(),
  );
  try {
    fake.answer('unsigned');
    const result = await createOutbound({ timeoutMs: 5_000 }).call('bureau', (signal) => bureau.query(subject, signal));
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.report.score, 762);
    const request = fake.received[0];
    assert.equal(request.refused, null);
    for (const header of ['x-signature', 'username', 'password'])
      assert.equal(request.headers[header], undefined, header);
    assert.equal(request.body?.apellidoMaterno, 'NO PROPORCIONADO');
  } finally {
    await bureau.close();
    await fake.close();
  }
});
