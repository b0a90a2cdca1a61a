import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, parseKey } from './config.ts';

const hexKey = randomBytes(32).toString('hex');
const base64Key = randomBytes(32).toString('base64');

/** Runs `fn` and returns the ConfigError it throws (failing the test when it throws nothing else). */
function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ConfigError, but nothing was thrown');
}

describe('configuration defaults (docs/operations.md)', () => {
  test('an empty environment gives every documented default', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.dataDir, './data');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.environment, 'sandbox');
    assert.equal(config.adminToken, undefined, 'the admin API is off by default');
    assert.equal(config.tokenTtlSeconds, 3600);
    assert.equal(config.tokenSigningKey, undefined);
    assert.equal(config.dataEncryptionKey, undefined);
    assert.equal(config.smsProvider, 'log');
    assert.equal(config.emailProvider, 'log');
    assert.equal(config.bureauProvider, 'sandbox');
    assert.equal(config.providerTimeoutMs, 5000);
    assert.equal(config.webhookTimeoutMs, 10000);
    assert.equal(config.webhookPollMs, 5000);
    assert.equal(config.webhookConcurrency, 32);
    assert.equal(config.webhookConcurrencyPerEndpoint, 8);
    assert.equal(config.rateLimitPerMinute, 6000);
    assert.equal(config.tokenRateLimitPerMinute, 60);
    assert.equal(config.twilio.baseUrl, 'https://api.twilio.com');
    assert.equal(config.piiRetentionDays, 180);
  });

  test('a variable set to the empty string counts as unset', () => {
    const config = loadConfig({ PORT: '', AUTOFIN_ENV: '', ADMIN_TOKEN: '', TOKEN_SIGNING_KEY: '' });
    assert.equal(config.port, 3000);
    assert.equal(config.environment, 'sandbox');
    assert.equal(config.adminToken, undefined);
    assert.equal(config.tokenSigningKey, undefined);
  });

  test('given values are read with their documented names', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      DATA_DIR: '/var/lib/autofin',
      AUTOFIN_ENV: 'staging-2',
      DATABASE_URL: 'postgres://u@db:5432/autofin',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_TOKEN: 'a-long-admin-token-123',
      TOKEN_TTL_SECONDS: '600',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_FROM: '+15550001111',
      TWILIO_BASE_URL: 'http://127.0.0.1:9999',
      EMAIL_PROVIDER: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      BUREAU_PROVIDER: 'http',
      BUREAU_URL: 'https://bureau.example',
      PROVIDER_TIMEOUT_MS: '250',
      RATE_LIMIT_PER_MINUTE: '10',
      TOKEN_RATE_LIMIT_PER_MINUTE: '5',
      PII_RETENTION_DAYS: '30',
    });
    assert.equal(config.piiRetentionDays, 30);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8080);
    assert.equal(config.dataDir, '/var/lib/autofin');
    assert.equal(config.environment, 'staging-2');
    assert.equal(config.databaseUrl, 'postgres://u@db:5432/autofin');
    assert.equal(config.redisUrl, 'redis://cache:6379');
    assert.equal(config.tokenTtlSeconds, 600);
    assert.equal(config.smsProvider, 'twilio');
    assert.equal(config.twilio.baseUrl, 'http://127.0.0.1:9999');
    assert.equal(config.smtpUrl, 'smtp://127.0.0.1:2525');
    assert.equal(config.bureauUrl, 'https://bureau.example');
    assert.equal(config.providerTimeoutMs, 250);
    assert.equal(config.rateLimitPerMinute, 10);
    assert.equal(config.tokenRateLimitPerMinute, 5);
  });
});

describe('invalid configuration stops the start with a ConfigError naming the variable', () => {
  const cases: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'http' }],
    ['PORT', { PORT: '65536' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['AUTOFIN_ENV', { AUTOFIN_ENV: 'Production' }],
    ['AUTOFIN_ENV', { AUTOFIN_ENV: 'a'.repeat(33) }],
    ['AUTOFIN_ENV', { AUTOFIN_ENV: 'my env' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'short' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db/autofin' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache:6379' }],
    ['TOKEN_TTL_SECONDS', { TOKEN_TTL_SECONDS: '0' }],
    ['TOKEN_TTL_SECONDS', { TOKEN_TTL_SECONDS: 'one hour' }],
    ['TOKEN_SIGNING_KEY', { TOKEN_SIGNING_KEY: 'too-short' }],
    ['DATA_ENCRYPTION_KEY', { DATA_ENCRYPTION_KEY: randomBytes(16).toString('hex') }],
    ['SMS_PROVIDER', { SMS_PROVIDER: 'whatsapp' }],
    ['TWILIO_ACCOUNT_SID', { SMS_PROVIDER: 'twilio', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+1555' }],
    ['TWILIO_AUTH_TOKEN', { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_FROM: '+1555' }],
    ['TWILIO_FROM', { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' }],
    ['TWILIO_BASE_URL', { TWILIO_BASE_URL: 'ftp://twilio' }],
    ['EMAIL_PROVIDER', { EMAIL_PROVIDER: 'sendgrid' }],
    ['SMTP_URL', { EMAIL_PROVIDER: 'smtp' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail:25' }],
    ['BUREAU_PROVIDER', { BUREAU_PROVIDER: 'real' }],
    ['BUREAU_URL', { BUREAU_PROVIDER: 'http' }],
    ['BUREAU_URL', { BUREAU_URL: 'bureau.example' }],
    ['PROVIDER_TIMEOUT_MS', { PROVIDER_TIMEOUT_MS: '0' }],
    ['PROVIDER_TIMEOUT_MS', { PROVIDER_TIMEOUT_MS: '5s' }],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '10s' }],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '99' }],
    ['WEBHOOK_POLL_MS', { WEBHOOK_POLL_MS: '10' }],
    ['WEBHOOK_CONCURRENCY', { WEBHOOK_CONCURRENCY: '0' }],
    ['WEBHOOK_CONCURRENCY_PER_ENDPOINT', { WEBHOOK_CONCURRENCY_PER_ENDPOINT: 'many' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '0' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: 'lots' }],
    ['TOKEN_RATE_LIMIT_PER_MINUTE', { TOKEN_RATE_LIMIT_PER_MINUTE: '-5' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'INFO' }],
    ['PII_RETENTION_DAYS', { PII_RETENTION_DAYS: '0' }],
    ['PII_RETENTION_DAYS', { PII_RETENTION_DAYS: '6 months' }],
  ];
  for (const [variable, env] of cases) {
    test(`${JSON.stringify(env)} is refused, naming ${variable}`, () => {
      const error = configErrorOf(() => loadConfig(env));
      assert.equal(error.variable, variable);
      assert.match(error.message, new RegExp(`\\b${variable}\\b`));
    });
  }

  test('the message of a refused secret never repeats the secret', () => {
    const adminToken = 'tiny-secret';
    assert.doesNotMatch(configErrorOf(() => loadConfig({ ADMIN_TOKEN: adminToken })).message, /tiny-secret/);
    const key = 'c2VjcmV0LWtleS10aGF0LWlzLXRvby1zaG9ydA==';
    assert.doesNotMatch(configErrorOf(() => loadConfig({ TOKEN_SIGNING_KEY: key })).message, new RegExp(key));
  });
});

describe('production needs its secrets from the environment', () => {
  test('production without TOKEN_SIGNING_KEY is refused', () => {
    const error = configErrorOf(() => loadConfig({ AUTOFIN_ENV: 'production', DATA_ENCRYPTION_KEY: hexKey }));
    assert.equal(error.variable, 'TOKEN_SIGNING_KEY');
  });

  test('production without DATA_ENCRYPTION_KEY is refused', () => {
    const error = configErrorOf(() => loadConfig({ AUTOFIN_ENV: 'production', TOKEN_SIGNING_KEY: hexKey }));
    assert.equal(error.variable, 'DATA_ENCRYPTION_KEY');
  });

  test('production with both keys starts; other environments may generate them', () => {
    const config = loadConfig({ AUTOFIN_ENV: 'production', TOKEN_SIGNING_KEY: hexKey, DATA_ENCRYPTION_KEY: base64Key });
    assert.equal(config.tokenSigningKey?.toString('hex'), hexKey);
    assert.equal(config.dataEncryptionKey?.toString('base64'), base64Key);
    assert.equal(loadConfig({ AUTOFIN_ENV: 'staging' }).tokenSigningKey, undefined);
  });
});

describe('keys are 32 bytes written as base64 or hex', () => {
  const bytes = randomBytes(32);
  const accepted: [string, string][] = [
    ['hex', bytes.toString('hex')],
    ['upper-case hex', bytes.toString('hex').toUpperCase()],
    ['padded base64', bytes.toString('base64')],
    ['unpadded base64', bytes.toString('base64').replace(/=+$/, '')],
    ['base64url', bytes.toString('base64url')],
  ];
  for (const [form, raw] of accepted) {
    test(`${form} is accepted and decodes to the same 32 bytes`, () => {
      assert.deepEqual(parseKey('TOKEN_SIGNING_KEY', raw), bytes);
    });
  }

  const refused: [string, string][] = [
    ['a passphrase', 'correct horse battery staple'],
    ['31 bytes of hex', randomBytes(31).toString('hex')],
    ['33 bytes of hex', randomBytes(33).toString('hex')],
    ['16 bytes of base64', randomBytes(16).toString('base64')],
    ['48 bytes of base64', randomBytes(48).toString('base64')],
    [
      'base64 with characters outside its alphabet',
      `${bytes.toString('base64').slice(0, 20)}!*${bytes.toString('base64').slice(20)}`,
    ],
    ['base64 with spaces inside', `${bytes.toString('base64').slice(0, 22)} ${bytes.toString('base64').slice(22)}`],
  ];
  for (const [form, raw] of refused) {
    test(`${form} is refused with a ConfigError naming the variable`, () => {
      const error = configErrorOf(() => parseKey('DATA_ENCRYPTION_KEY', raw));
      assert.equal(error.variable, 'DATA_ENCRYPTION_KEY');
    });
  }

  test('an absent key is undefined, to be generated under DATA_DIR', () => {
    assert.equal(parseKey('TOKEN_SIGNING_KEY', undefined), undefined);
  });
});

describe('previous keys are comma-separated, each written as the current key may be', () => {
  const [a, b] = [randomBytes(32), randomBytes(32)];
  for (const variable of ['DATA_ENCRYPTION_PREVIOUS_KEYS', 'TOKEN_SIGNING_PREVIOUS_KEYS'] as const) {
    const read = (raw: string) => {
      const config = loadConfig({ [variable]: raw });
      return variable === 'DATA_ENCRYPTION_PREVIOUS_KEYS'
        ? config.dataEncryptionPreviousKeys
        : config.tokenSigningPreviousKeys;
    };

    test(`${variable}: hex and base64 keys, spaces around commas and a trailing comma are read in order`, () => {
      assert.deepEqual(read(`${a.toString('hex')} , ${b.toString('base64')},`), [a, b]);
      assert.deepEqual(read(''), []);
    });

    test(`${variable}: one bad entry is refused naming the variable and the entry, never the keys`, () => {
      const raw = `${a.toString('hex')},not-a-key-at-all`;
      const error = configErrorOf(() => read(raw));
      assert.equal(error.variable, variable);
      assert.match(error.message, /entry 2/);
      assert.doesNotMatch(error.message, new RegExp(a.toString('hex')));
    });
  }

  test('unset, there are no previous keys', () => {
    const config = loadConfig({});
    assert.deepEqual([config.dataEncryptionPreviousKeys, config.tokenSigningPreviousKeys], [[], []]);
  });
});

describe('TRUST_PROXY names the proxies whose X-Forwarded-For is believed', () => {
  const cases: [string | undefined, false | number | string[]][] = [
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,fd00::/8,::1', ['loopback', 'fd00::/8', '::1']],
  ];
  for (const [raw, expected] of cases) {
    test(`${raw ?? 'unset'} gives ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy, expected);
    });
  }

  test('true, which believes addresses any client writes, is refused with a message saying what to use', () => {
    const error = configErrorOf(() => loadConfig({ TRUST_PROXY: 'true' }));
    assert.equal(error.variable, 'TRUST_PROXY');
    assert.match(error.message, /must not be true/);
    assert.match(error.message, /number of proxies/);
  });

  for (const raw of ['the load balancer', '10.0.0.0/33', '999.1.1.1', '10.0.0.1/8/1', 'fd00::/129', '100']) {
    test(`"${raw}" is a ConfigError naming TRUST_PROXY`, () => {
      assert.equal(configErrorOf(() => loadConfig({ TRUST_PROXY: raw })).variable, 'TRUST_PROXY');
    });
  }
});

describe('slow clients, stopping and the sandbox outbox', () => {
  test('defaults: 30 s for a request, 10 s for its headers, 2 s of draining, outbox of 60 minutes and 1 MiB', () => {
    const config = loadConfig({});
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.shutdownDrainMs, 2000);
  });

  test('given values are read', () => {
    const config = loadConfig({
      REQUEST_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '1000',
      SHUTDOWN_DRAIN_MS: '0',
    });
    assert.deepEqual([config.requestTimeoutMs, config.headersTimeoutMs, config.shutdownDrainMs], [5000, 1000, 0]);
  });

  test('a header timeout longer than the request timeout is refused', () => {
    const error = configErrorOf(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' }));
    assert.equal(error.variable, 'HEADERS_TIMEOUT_MS');
  });

  for (const [name, value] of [
    ['REQUEST_TIMEOUT_MS', '0'],
    ['HEADERS_TIMEOUT_MS', 'soon'],
  ]) {
    test(`${name}=${value} is refused`, () => {
      assert.equal(configErrorOf(() => loadConfig({ [name]: value })).variable, name);
    });
  }
});
