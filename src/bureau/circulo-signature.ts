/**
 * Círculo de Crédito's message signature: ECDSA with SHA-256 over the exact body bytes, the DER
 * encoding of the signature written as lowercase hex in the `x-signature` header. The lender signs
 * requests with its P-384 key; Círculo signs its answers with the key of its certificate.
 */
import { sign, verify, type KeyObject } from 'node:crypto';

export function signBody(body: Buffer | string, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(body), { key: privateKey, dsaEncoding: 'der' }).toString('hex');
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** False for a missing, malformed or non-matching signature; never throws. */
export function verifyBody(body: Buffer | string, signatureHex: string | undefined, publicKey: KeyObject): boolean {
  if (!signatureHex || !HEX.test(signatureHex.trim())) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(body),
      { key: publicKey, dsaEncoding: 'der' },
      Buffer.from(signatureHex.trim(), 'hex'),
    );
  } catch {
    return false;
  }
}
