import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCirculoKeys, type CirculoKeys } from '../../test/circulo-keys.ts';
import { signBody, verifyBody } from './circulo-signature.ts';

let keys: CirculoKeys;
let lenderKey: KeyObject;
const body =
  '{"primerNombre":"JUAN","apellidoPaterno":"PEREZ","apellidoMaterno":"LOPEZ","fechaNacimiento":"1956-12-31",' +
  '"RFC":"PELJ561231GR8","nacionalidad":"MX","domicilio":{"direccion":"INSURGENTES SUR 1000",' +
  '"coloniaPoblacion":"DEL VALLE CENTRO","delegacionMunicipio":"BENITO JUAREZ","ciudad":"CIUDAD DE MEXICO",' +
  '"estado":"CDMX","CP":"03100"}}';

describe("Círculo de Crédito's request signature", () => {
  before(() => {
    keys = makeCirculoKeys();
    lenderKey = createPrivateKey(readFileSync(keys.lenderKeyFile));
    writeFileSync(join(keys.dir, 'body.json'), body);
    writeFileSync(join(keys.dir, 'lender.pub.pem'), createPublicKey(lenderKey).export({ type: 'spki', format: 'pem' }));
  });

  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: keys.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  test(
    'a signature made by `openssl dgst -sha256 -sign` ' + 'verifies: lowercase hex of DER is what the header carries',
    () => {
      openssl('dgst', '-sha256', '-sign', 'lender.pem', '-out', 'openssl.sig', 'body.json');
      const vector = readFileSync(join(keys.dir, 'openssl.sig')).toString('hex');
      assert.match(vector, /^30[0-9a-f]+$/, 'a DER SEQUENCE');
      assert.equal(verifyBody(body, vector, createPublicKey(lenderKey)), true);
      assert.equal(
        verifyBody(body, vector.toUpperCase(), createPublicKey(lenderKey)),
        true,
        'hex case does not matter on reading',
      );
      assert.equal(
        verifyBody(`${body} `, vector, createPublicKey(lenderKey)),
        false,
        'one more byte and it no longer verifies',
      );
    },
  );

  test("our signature verifies with `openssl dgst -sha256 -verify`, as Círculo's verifier checks it", () => {
    const ours = signBody(body, lenderKey);
    assert.match(ours, /^30[0-9a-f]+$/, 'lowercase hex of a DER SEQUENCE');
    // P-384 DER signatures are 102–104 bytes (r and s of up to 48 bytes plus their headers).
    assert.ok(ours.length >= 2 * 100 && ours.length <= 2 * 104, `length ${ours.length / 2} bytes`);
    writeFileSync(join(keys.dir, 'ours.sig'), Buffer.from(ours, 'hex'));
    assert.match(
      openssl('dgst', '-sha256', '-verify', 'lender.pub.pem', '-signature', 'ours.sig', 'body.json'),
      /Verified OK/,
    );
    writeFileSync(join(keys.dir, 'other.json'), body.replace('JUAN', 'JUANA'));
    assert.throws(() =>
      openssl('dgst', '-sha256', '-verify', 'lender.pub.pem', '-signature', 'ours.sig', 'other.json'),
    );
  });

  test('a missing, malformed or foreign signature does not verify and never throws', () => {
    const publicKey = createPublicKey(lenderKey);
    const good = signBody(body, lenderKey);
    for (const signature of [undefined, '', 'zz', good.slice(1), `${good}00`, signBody(body, keys.circuloPrivateKey)]) {
      assert.equal(verifyBody(body, signature, publicKey), false, String(signature));
    }
    assert.equal(verifyBody(body, good, publicKey), true);
  });
});
