import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCirculoKeys, type CirculoKeys } from '../../test/circulo-keys.ts';
import { ConfigError, loadConfig } from './config.ts';

let keys: CirculoKeys;
describe('Círculo de Crédito settings', () => {
  before(() => {
    keys = makeCirculoKeys();
  });

  const production = () => ({
    BUREAU_PROVIDER: 'circulo',
    CIRCULO_BASE_URL: 'https://services.circulodecredito.com.mx/sandbox',
    CIRCULO_API_KEY: 'api-key-1',
    CIRCULO_USERNAME: 'lender-user',
    CIRCULO_PASSWORD: 'lender-pass',
    CIRCULO_PRIVATE_KEY_FILE: keys.lenderKeyFile,
    CIRCULO_CERTIFICATE_FILE: keys.circuloCertificateFile,
  });

  /** The ConfigError loading `env` throws. */
  function refusal(env: Record<string, string>): ConfigError {
    try {
      loadConfig(env);
    } catch (error) {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      return error;
    }
    assert.fail('the configuration was accepted');
  }

  describe('BUREAU_PROVIDER=circulo settings', () => {
    readTests();
    refusalTests();
  });

  /** Which settings each provider reads. */
  function readTests(): void {
    test(
      'production reads every setting; the key as openssl ' + 'ecparam writes it (EC PARAMETERS + SEC1) and as PKCS#8',
      () => {
        for (const file of [keys.lenderKeyFile, keys.lenderPkcs8File]) {
          const config = loadConfig({ ...production(), CIRCULO_PRIVATE_KEY_FILE: file });
          const circulo = config.circulo!;
          assert.equal(config.bureauProvider, 'circulo');
          assert.equal(circulo.mode, 'production');
          assert.equal(circulo.baseUrl, 'https://services.circulodecredito.com.mx/sandbox');
          assert.deepEqual(
            [circulo.apiKey, circulo.username, circulo.password],
            ['api-key-1', 'lender-user', 'lender-pass'],
          );
          assert.equal(circulo.privateKey?.asymmetricKeyDetails?.namedCurve, 'secp384r1');
          assert.equal(circulo.circuloKey?.asymmetricKeyType, 'ec');
          assert.equal(circulo.tls, null);
        }
      },
    );

    test('other providers read none of it', () => {
      assert.equal(loadConfig({ CIRCULO_MODE: 'bogus', CIRCULO_PRIVATE_KEY_FILE: '/nowhere' }).circulo, undefined);
    });

    test('simulation needs only the base URL and the API key', () => {
      const config = loadConfig({
        BUREAU_PROVIDER: 'circulo',
        CIRCULO_MODE: 'simulation',
        CIRCULO_BASE_URL: 'http://127.0.0.1:9/sim',
        CIRCULO_API_KEY: 'k',
      });
      assert.equal(config.circulo?.mode, 'simulation');
      assert.equal(config.circulo?.privateKey, null);
      assert.equal(
        refusal({ BUREAU_PROVIDER: 'circulo', CIRCULO_MODE: 'simulation', CIRCULO_BASE_URL: 'http://127.0.0.1:9' })
          .variable,
        'CIRCULO_API_KEY',
      );
    });
  }

  /** Missing and unusable settings are refused. */
  function refusalTests(): void {
    test('each missing production setting is refused, naming its variable', () => {
      for (const name of Object.keys(production()).filter((n) => n !== 'BUREAU_PROVIDER')) {
        const env: Record<string, string> = production();
        delete env[name];
        const error = refusal(env);
        assert.equal(error.variable, name);
        assert.match(
          error.message,
          new RegExp(`${name} is required when BUREAU_PROVIDER=circulo and CIRCULO_MODE=production`),
        );
      }
    });

    test('unreadable, unparseable, encrypted and wrong-curve files are refused, naming the variable', () => {
      const garbage = join(keys.dir, 'garbage.pem');
      writeFileSync(garbage, '-----BEGIN EC PRIVATE KEY-----\nbm90IGEga2V5\n-----END EC PRIVATE KEY-----\n');
      const notPem = join(keys.dir, 'not.pem');
      writeFileSync(notPem, 'hello');
      const cases: [Record<string, string>, string, RegExp][] = [
        [
          { CIRCULO_PRIVATE_KEY_FILE: join(keys.dir, 'missing.pem') },
          'CIRCULO_PRIVATE_KEY_FILE',
          /cannot be read \(ENOENT\)/,
        ],
        [{ CIRCULO_PRIVATE_KEY_FILE: notPem }, 'CIRCULO_PRIVATE_KEY_FILE', /must name a PEM file/],
        [{ CIRCULO_PRIVATE_KEY_FILE: garbage }, 'CIRCULO_PRIVATE_KEY_FILE', /does not parse/],
        [{ CIRCULO_PRIVATE_KEY_FILE: keys.lenderEncryptedFile }, 'CIRCULO_PRIVATE_KEY_FILE', /encrypted key/],
        [{ CIRCULO_PRIVATE_KEY_FILE: keys.wrongCurveKeyFile }, 'CIRCULO_PRIVATE_KEY_FILE', /P-384/],
        [{ CIRCULO_PRIVATE_KEY_FILE: keys.circuloCertificateFile }, 'CIRCULO_PRIVATE_KEY_FILE', /PEM private key/],
        [
          { CIRCULO_CERTIFICATE_FILE: keys.lenderKeyFile },
          'CIRCULO_CERTIFICATE_FILE',
          /certificate that does not parse/,
        ],
        [{ CIRCULO_CERTIFICATE_FILE: keys.dir }, 'CIRCULO_CERTIFICATE_FILE', /cannot be read/],
        [{ CIRCULO_MODE: 'live' }, 'CIRCULO_MODE', /production, simulation/],
        [{ CIRCULO_BASE_URL: 'services.circulodecredito.com.mx' }, 'CIRCULO_BASE_URL', /must be a URL/],
        [
          { CIRCULO_TLS_CERT_FILE: keys.circuloCertificateFile },
          'CIRCULO_TLS_KEY_FILE',
          /required with CIRCULO_TLS_CERT_FILE/,
        ],
        [{ CIRCULO_TLS_KEY_FILE: keys.lenderPkcs8File }, 'CIRCULO_TLS_CERT_FILE', /required with CIRCULO_TLS_KEY_FILE/],
        [
          { CIRCULO_TLS_CERT_FILE: keys.circuloCertificateFile, CIRCULO_TLS_KEY_FILE: keys.lenderEncryptedFile },
          'CIRCULO_TLS_KEY_FILE',
          /encrypted/,
        ],
      ];
      for (const [change, variable, message] of cases) {
        const error = refusal({ ...production(), ...change });
        assert.equal(error.variable, variable, JSON.stringify(change));
        assert.match(error.message, message);
      }
    });

    test('mutual TLS takes both PEM files', () => {
      const config = loadConfig({
        ...production(),
        CIRCULO_TLS_CERT_FILE: keys.circuloCertificateFile,
        CIRCULO_TLS_KEY_FILE: keys.lenderPkcs8File,
      });
      assert.match(config.circulo!.tls!.cert, /BEGIN CERTIFICATE/);
      assert.match(config.circulo!.tls!.key, /BEGIN PRIVATE KEY/);
    });

    test('the service refuses to start: the message names the variable on stderr, exit code non-zero', () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        env: {
          ...process.env,
          ...production(),
          CIRCULO_PRIVATE_KEY_FILE: keys.lenderEncryptedFile,
          PORT: '0',
          DATA_DIR: keys.dir,
          DATABASE_URL: '',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.notEqual(run.status, 0);
      assert.match(run.stderr, /CIRCULO_PRIVATE_KEY_FILE/);
      assert.ok(!run.stderr.includes('BEGIN'), 'no key material is printed');
    });
  }
});
