import { loadCirculoSettings, SettingError, type CirculoSettings } from './circulo-settings.ts';

/**
 * Configuration from the environment. The variable names and defaults are part of the contract
 * (docs/operations.md, "Configuration"). A bad value stops the process with a message naming the variable.
 */
import { isIP } from 'node:net';

export const environmentNamePattern = /^[a-z0-9-]{1,32}$/;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  environment: string;
  adminToken: string | undefined;
  tokenTtlSeconds: number;
  tokenSigningKey: Buffer | undefined;
  /** Keys that signed tokens before TOKEN_SIGNING_KEY: they still verify those tokens. */
  tokenSigningPreviousKeys: Buffer[];
  dataEncryptionKey: Buffer | undefined;
  /** Keys that encrypted stored values before DATA_ENCRYPTION_KEY: they still decrypt them. */
  dataEncryptionPreviousKeys: Buffer[];
  smsProvider: 'log' | 'twilio';
  twilio: { accountSid: string; authToken: string; from: string; baseUrl: string };
  emailProvider: 'log' | 'smtp';
  smtpUrl: string | undefined;
  emailFrom: string;
  bureauProvider: 'sandbox' | 'http' | 'circulo';
  bureauUrl: string | undefined;
  /** Only when BUREAU_PROVIDER=circulo (docs/bureau-circulo.md). */
  circulo: CirculoSettings | undefined;
  providerTimeoutMs: number;
  /** Time limit of one webhook delivery attempt. */
  webhookTimeoutMs: number;
  /** The delivery worker's fallback look for due deliveries (it is woken when one is written). */
  webhookPollMs: number;
  /** Webhook attempts in flight at once in one process, and to one endpoint. */
  webhookConcurrency: number;
  webhookConcurrencyPerEndpoint: number;
  /** Days a finished webhook delivery, and an event no delivery needs, are kept (src/webhooks). */
  webhookRetentionDays: number;
  rateLimitPerMinute: number;
  tokenRateLimitPerMinute: number;
  /** Proxies whose X-Forwarded-For is believed: none (false), a hop count, or addresses/CIDR ranges. */
  trustProxy: false | number | string[];
  /** Time a client has to send a whole request (headers and body), and its headers alone. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** How long a stop answers 503 on open connections before closing the idle ones. */
  shutdownDrainMs: number;
  /** The sandbox outbox keeps messages this recent, in a file at most this large. */
  /** pino's level: the lines below it are never built. */
  logLevel: LogLevel;
  /** Leads unchanged this many days have their personal data erased (daily). */
  piiRetentionDays: number;
  /** A credit (a FUNDED lead) keeps its personal data this many years from the funding. */
  creditRetentionYears: number;
  /** Where documents' sealed bytes are kept (docs/operations.md, "Documents"). */
  documentStore: 'database' | 's3';
  /** Only when DOCUMENT_STORE=s3; credentials come from the AWS SDK's standard chain. */
  s3: { bucket: string; endpoint: string | undefined; region: string; forcePathStyle: boolean } | undefined;
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback?: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name, fallback)!;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

const hexKey = /^[0-9a-fA-F]{64}$/;
// Node's base64 decoder skips characters outside the alphabet, so check the text first: a
// passphrase or a mangled key must be refused, not decoded into some other 32 bytes.
const base64Key = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** A 32-byte key given as base64 (or base64url) or hex. */
export function parseKey(name: string, raw: string | undefined): Buffer | undefined {
  if (raw === undefined) return undefined;
  const key = hexKey.test(raw) ? Buffer.from(raw, 'hex') : base64Key.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (key?.length !== 32) throw new ConfigError(name, 'must be 32 random bytes written as base64 or hex');
  return key;
}

/** Comma-separated keys, each as parseKey takes it; empty entries (a trailing comma) are skipped. */
export function parseKeyList(name: string, raw: string | undefined): Buffer[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, i) => {
      try {
        return parseKey(name, item)!;
      } catch {
        throw new ConfigError(name, `entry ${i + 1}: each key must be 32 random bytes written as base64 or hex`);
      }
    });
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one of the named ranges. */
function isProxyEntry(entry: string): boolean {
  if (proxyNames.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Behind a load balancer every request comes from its address: the per-address limit of failed
 * token requests then needs the client's address from X-Forwarded-For, believed only as far as the
 * proxies named here (docs/operations.md, "Behind a load balancer"). `true` would believe the
 * leftmost address, which any client writes itself, so it is refused.
 */
function trustProxy(raw: string | undefined): false | number | string[] {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      'must not be true: that believes any X-Forwarded-For a client writes. Give the number of proxies in front of ' +
        'the service (e.g. 1) or their addresses/CIDR ranges, comma-separated',
    );
  }
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isProxyEntry(e));
  if (entries.length === 0 || bad !== undefined) {
    throw new ConfigError(
      'TRUST_PROXY',
      'must be false, a hop count (1-99), or a comma-separated list of addresses, CIDR ranges, loopback, ' +
        `linklocal or uniquelocal${bad ? `; "${bad}" is none of these` : ''}`,
    );
  }
  return entries;
}

function circulo(env: Env): CirculoSettings {
  try {
    return loadCirculoSettings(env);
  } catch (error) {
    if (error instanceof SettingError) throw new ConfigError(error.variable, error.message);
    throw error;
  }
}

function requireWhen(condition: boolean, name: string, value: unknown, why: string): void {
  if (condition && (value === undefined || value === '')) throw new ConfigError(name, `is required ${why}`);
}

export function loadConfig(env: Env = process.env): Config {
  const environment = text(env, 'AUTOFIN_ENV', 'sandbox')!;
  if (!environmentNamePattern.test(environment)) {
    throw new ConfigError('AUTOFIN_ENV', 'must be 1-32 lowercase letters, digits and dashes');
  }
  const adminToken = text(env, 'ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  }
  const config: Config = {
    host: text(env, 'HOST', '127.0.0.1')!,
    port: integer(env, 'PORT', 3000, 0, 65535),
    dataDir: text(env, 'DATA_DIR', './data')!,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    environment,
    adminToken,
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 3600, 1, 86400 * 30),
    tokenSigningKey: parseKey('TOKEN_SIGNING_KEY', text(env, 'TOKEN_SIGNING_KEY')),
    tokenSigningPreviousKeys: parseKeyList('TOKEN_SIGNING_PREVIOUS_KEYS', text(env, 'TOKEN_SIGNING_PREVIOUS_KEYS')),
    dataEncryptionKey: parseKey('DATA_ENCRYPTION_KEY', text(env, 'DATA_ENCRYPTION_KEY')),
    dataEncryptionPreviousKeys: parseKeyList(
      'DATA_ENCRYPTION_PREVIOUS_KEYS',
      text(env, 'DATA_ENCRYPTION_PREVIOUS_KEYS'),
    ),
    smsProvider: oneOf(env, 'SMS_PROVIDER', ['log', 'twilio'] as const, 'log'),
    twilio: {
      accountSid: text(env, 'TWILIO_ACCOUNT_SID', '')!,
      authToken: text(env, 'TWILIO_AUTH_TOKEN', '')!,
      from: text(env, 'TWILIO_FROM', '')!,
      baseUrl: url(env, 'TWILIO_BASE_URL', ['http:', 'https:']) ?? 'https://api.twilio.com',
    },
    emailProvider: oneOf(env, 'EMAIL_PROVIDER', ['log', 'smtp'] as const, 'log'),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    emailFrom: text(env, 'EMAIL_FROM', 'autofin <no-reply@autofin.invalid>')!,
    bureauProvider: oneOf(env, 'BUREAU_PROVIDER', ['sandbox', 'http', 'circulo'] as const, 'sandbox'),
    bureauUrl: url(env, 'BUREAU_URL', ['http:', 'https:']),
    circulo: env.BUREAU_PROVIDER === 'circulo' ? circulo(env) : undefined,
    providerTimeoutMs: integer(env, 'PROVIDER_TIMEOUT_MS', 5000, 1, 120000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10000, 100, 60000),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 5000, 50, 600_000),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
    webhookConcurrencyPerEndpoint: integer(env, 'WEBHOOK_CONCURRENCY_PER_ENDPOINT', 8, 1, 1000),
    webhookRetentionDays: integer(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 6000, 1, 10_000_000),
    tokenRateLimitPerMinute: integer(env, 'TOKEN_RATE_LIMIT_PER_MINUTE', 60, 1, 10_000_000),
    trustProxy: trustProxy(text(env, 'TRUST_PROXY')),
    logLevel: oneOf(env, 'LOG_LEVEL', logLevels, 'info'),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 3_600_000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 2000, 0, 600_000),
    piiRetentionDays: integer(env, 'PII_RETENTION_DAYS', 180, 1, 36_500),
    creditRetentionYears: integer(env, 'CREDIT_RETENTION_YEARS', 10, 1, 100),
    documentStore: oneOf(env, 'DOCUMENT_STORE', ['database', 's3'] as const, 'database'),
    s3: undefined,
  };
  if (config.documentStore === 's3') config.s3 = s3Settings(env);
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`);
  }
  checkDependencies(config);
  return config;
}

function s3Settings(env: Env): NonNullable<Config['s3']> {
  const bucket = text(env, 'S3_BUCKET');
  requireWhen(true, 'S3_BUCKET', bucket, 'when DOCUMENT_STORE=s3');
  return {
    bucket: bucket!,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: text(env, 'S3_REGION', 'us-east-1')!,
    forcePathStyle: oneOf(env, 'S3_FORCE_PATH_STYLE', ['true', 'false'] as const, 'false') === 'true',
  };
}

function checkDependencies(config: Config): void {
  const twilio = config.smsProvider === 'twilio';
  requireWhen(twilio, 'TWILIO_ACCOUNT_SID', config.twilio.accountSid, 'when SMS_PROVIDER=twilio');
  requireWhen(twilio, 'TWILIO_AUTH_TOKEN', config.twilio.authToken, 'when SMS_PROVIDER=twilio');
  requireWhen(twilio, 'TWILIO_FROM', config.twilio.from, 'when SMS_PROVIDER=twilio');
  requireWhen(config.emailProvider === 'smtp', 'SMTP_URL', config.smtpUrl, 'when EMAIL_PROVIDER=smtp');
  requireWhen(config.bureauProvider === 'http', 'BUREAU_URL', config.bureauUrl, 'when BUREAU_PROVIDER=http');
  const production = config.environment === 'production';
  requireWhen(production, 'TOKEN_SIGNING_KEY', config.tokenSigningKey, 'in production');
  requireWhen(production, 'DATA_ENCRYPTION_KEY', config.dataEncryptionKey, 'in production');
}
