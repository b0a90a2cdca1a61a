/**
 * The settings of BUREAU_PROVIDER=circulo (docs/bureau-circulo.md), read and checked at start: the
 * PEM files are read and parsed here, so a missing, unreadable, unparseable or encrypted file stops
 * the start with a message naming its variable instead of failing the first PIN confirmation.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type CirculoMode = 'production' | 'simulation';

export interface CirculoSettings {
  mode: CirculoMode;
  baseUrl: string;
  apiKey: string;
  /** Production only: Círculo's `username` and `password` headers and the signature keys. */
  username: string | null;
  password: string | null;
  /** The lender's EC P-384 key that signs each request body. */
  privateKey: KeyObject | null;
  /** The public key of Círculo's certificate, which verifies each response. */
  circuloKey: KeyObject | null;
  /** Mutual TLS, when Círculo asks for it: the PEM texts of the client certificate and key. */
  tls: { cert: string; key: string } | null;
}

/** Thrown with the variable's name; config.ts turns it into its ConfigError. */
export class SettingError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(detail);
  }
}

type Env = Record<string, string | undefined>;

const value = (env: Env, name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

function required(env: Env, name: string, mode: CirculoMode): string {
  const raw = value(env, name);
  if (raw === undefined)
    throw new SettingError(name, `is required when BUREAU_PROVIDER=circulo and CIRCULO_MODE=${mode}`);
  return raw;
}

function readPem(name: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'error';
    throw new SettingError(name, `names a file that cannot be read (${code})`);
  }
  if (!text.includes('-----BEGIN ')) throw new SettingError(name, 'must name a PEM file');
  return text;
}

/** The one private-key block of a PEM file; `openssl ecparam -genkey` writes an EC PARAMETERS block before it. */
function privateKeyBlock(name: string, pem: string): string {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(pem)) {
    throw new SettingError(
      name,
      'is an encrypted key; give the key without a passphrase (file permissions protect it)',
    );
  }
  const block = /-----BEGIN (EC PRIVATE KEY|PRIVATE KEY)-----[\s\S]+?-----END \1-----/.exec(pem);
  if (!block) throw new SettingError(name, 'must hold a PEM private key (EC PRIVATE KEY or PRIVATE KEY)');
  return block[0];
}

/** The lender's signing key: EC on P-384, SEC1 or PKCS#8, unencrypted. */
export function parseSigningKey(name: string, pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: privateKeyBlock(name, pem), format: 'pem' });
  } catch (error) {
    if (error instanceof SettingError) throw error;
    throw new SettingError(name, 'holds a private key that does not parse');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp384r1') {
    throw new SettingError(name, 'must be an EC key on the P-384 curve (secp384r1)');
  }
  return key;
}

/** Círculo's certificate: an X.509 PEM with an EC public key. */
export function parseCirculoCertificate(name: string, pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = new X509Certificate(pem).publicKey;
  } catch {
    throw new SettingError(name, 'holds a certificate that does not parse');
  }
  if (key.asymmetricKeyType !== 'ec') throw new SettingError(name, 'must be a certificate with an EC public key');
  return key;
}

function tlsPair(env: Env): CirculoSettings['tls'] {
  const certPath = value(env, 'CIRCULO_TLS_CERT_FILE');
  const keyPath = value(env, 'CIRCULO_TLS_KEY_FILE');
  if (certPath === undefined && keyPath === undefined) return null;
  if (certPath === undefined) throw new SettingError('CIRCULO_TLS_CERT_FILE', 'is required with CIRCULO_TLS_KEY_FILE');
  if (keyPath === undefined) throw new SettingError('CIRCULO_TLS_KEY_FILE', 'is required with CIRCULO_TLS_CERT_FILE');
  const cert = readPem('CIRCULO_TLS_CERT_FILE', certPath);
  try {
    new X509Certificate(cert);
  } catch {
    throw new SettingError('CIRCULO_TLS_CERT_FILE', 'holds a certificate that does not parse');
  }
  const keyPem = readPem('CIRCULO_TLS_KEY_FILE', keyPath);
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(keyPem)) {
    throw new SettingError('CIRCULO_TLS_KEY_FILE', 'is an encrypted key; give the key without a passphrase');
  }
  try {
    createPrivateKey(keyPem);
  } catch {
    throw new SettingError('CIRCULO_TLS_KEY_FILE', 'holds a private key that does not parse');
  }
  return { cert, key: keyPem };
}

function baseUrl(env: Env, mode: CirculoMode): string {
  const raw = required(env, 'CIRCULO_BASE_URL', mode);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new SettingError('CIRCULO_BASE_URL', 'must be a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new SettingError('CIRCULO_BASE_URL', 'must start with https:// or http://');
  if (parsed.username || parsed.password)
    throw new SettingError(
      'CIRCULO_BASE_URL',
      'must not carry credentials (use CIRCULO_USERNAME and CIRCULO_PASSWORD)',
    );
  return raw;
}

export function loadCirculoSettings(env: Env): CirculoSettings {
  const rawMode = value(env, 'CIRCULO_MODE') ?? 'production';
  if (rawMode !== 'production' && rawMode !== 'simulation') {
    throw new SettingError('CIRCULO_MODE', `must be one of production, simulation, got "${rawMode}"`);
  }
  const mode: CirculoMode = rawMode;
  const settings: CirculoSettings = {
    mode,
    baseUrl: baseUrl(env, mode),
    apiKey: required(env, 'CIRCULO_API_KEY', mode),
    username: null,
    password: null,
    privateKey: null,
    circuloKey: null,
    tls: tlsPair(env),
  };
  if (mode === 'simulation') return settings;
  settings.username = required(env, 'CIRCULO_USERNAME', mode);
  settings.password = required(env, 'CIRCULO_PASSWORD', mode);
  settings.privateKey = parseSigningKey(
    'CIRCULO_PRIVATE_KEY_FILE',
    readPem('CIRCULO_PRIVATE_KEY_FILE', required(env, 'CIRCULO_PRIVATE_KEY_FILE', mode)),
  );
  settings.circuloKey = parseCirculoCertificate(
    'CIRCULO_CERTIFICATE_FILE',
    readPem('CIRCULO_CERTIFICATE_FILE', required(env, 'CIRCULO_CERTIFICATE_FILE', mode)),
  );
  return settings;
}
