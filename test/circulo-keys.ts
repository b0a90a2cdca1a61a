/**
 * Key material for Círculo de Crédito tests, made fresh in a temp directory: the lender's P-384 key
 * as `openssl ecparam -genkey` writes it (EC PARAMETERS block, then the SEC1 key), the same key as
 * PKCS#8 and encrypted, and Círculo's own key pair with a self-signed certificate (openssl CLI).
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CirculoKeys {
  dir: string;
  /** The lender's key files: SEC1 with EC PARAMETERS (openssl ecparam), PKCS#8, encrypted PKCS#8. */
  lenderKeyFile: string;
  lenderPkcs8File: string;
  lenderEncryptedFile: string;
  lenderPublicKey: KeyObject;
  /** Círculo's side: its private key (the fake server signs with it) and its certificate file. */
  circuloPrivateKey: KeyObject;
  circuloCertificateFile: string;
  /** A P-256 key, which the settings refuse. */
  wrongCurveKeyFile: string;
}

const openssl = (dir: string, ...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

export function makeCirculoKeys(): CirculoKeys {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-circulo-'));
  openssl(dir, 'ecparam', '-name', 'secp384r1', '-genkey', '-out', 'lender.pem');
  const lenderPrivate = createPrivateKey(
    readFileSync(join(dir, 'lender.pem'), 'utf8').replace(
      /-----BEGIN EC PARAMETERS-----[\s\S]+?-----END EC PARAMETERS-----\s*/,
      '',
    ),
  );
  writeFileSync(join(dir, 'lender.pkcs8.pem'), lenderPrivate.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(
    join(dir, 'lender.enc.pem'),
    lenderPrivate.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }),
  );
  openssl(dir, 'ecparam', '-name', 'secp384r1', '-genkey', '-noout', '-out', 'circulo.key');
  openssl(
    dir,
    'req',
    '-new',
    '-x509',
    '-key',
    'circulo.key',
    '-subj',
    '/CN=circulo-test',
    '-days',
    '2',
    '-out',
    'circulo.crt',
  );
  openssl(dir, 'ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'p256.pem');
  return {
    dir,
    lenderKeyFile: join(dir, 'lender.pem'),
    lenderPkcs8File: join(dir, 'lender.pkcs8.pem'),
    lenderEncryptedFile: join(dir, 'lender.enc.pem'),
    lenderPublicKey: createPublicKey(lenderPrivate),
    circuloPrivateKey: createPrivateKey(readFileSync(join(dir, 'circulo.key'))),
    circuloCertificateFile: join(dir, 'circulo.crt'),
    wrongCurveKeyFile: join(dir, 'p256.pem'),
  };
}

let shared: CirculoKeys | undefined;

/**
 * One set of keys for the whole test process, for the tests that only read them (the apps pointed at the
 * fake Círculo): each new set costs five openssl processes.
 */
export const sharedCirculoKeys = (): CirculoKeys => (shared ??= makeCirculoKeys());
