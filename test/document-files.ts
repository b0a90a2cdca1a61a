/**
 * Test helper: multipart bodies of document uploads, and files of each kind the upload tells apart:
 * PDFs (plain, with active content in a plain or a compressed object stream, with an escaped name,
 * encrypted), JPEG and PNG bytes, and bytes of no accepted type.
 */
import { randomBytes } from 'node:crypto';
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';

export type FormPart =
  { name: string; value: string } | { name: string; fileName: string; contentType?: string; data: Buffer };

/** A multipart/form-data body of `parts` in their order, with `boundary` (a random one by default). */
export function multipart(parts: FormPart[], boundary = `----autofin${randomBytes(8).toString('hex')}`) {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const head =
      'fileName' in part
        ? `Content-Disposition: form-data; name="${part.name}"; filename="${part.fileName}"\r\n` +
          `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`
        : `Content-Disposition: form-data; name="${part.name}"\r\n`;
    pieces.push(Buffer.from(`--${boundary}\r\n${head}\r\n`));
    pieces.push('fileName' in part ? part.data : Buffer.from(part.value));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(pieces),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The usual upload: conditionId, type, then the file. */
export const uploadForm = (
  conditionId: string,
  file: { fileName: string; data: Buffer; contentType?: string },
  type = 'PROOF_OF_INCOME',
  boundary?: string,
) =>
  multipart(
    [
      { name: 'conditionId', value: conditionId },
      { name: 'type', value: type },
      { name: 'file', ...file },
    ],
    boundary,
  );

/** A one-page PDF; `pad` bytes of a comment make it as large as asked. */
export async function plainPdf(pad = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Recibo de nómina');
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  return pad > 0 ? Buffer.concat([bytes, Buffer.from(`%${'x'.repeat(pad)}\n`)]) : bytes;
}

/** A PDF that runs a script when opened; `compressed` puts its objects in an object stream. */
export async function scriptPdf(compressed: boolean): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const action = doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
  return Buffer.from(await doc.save({ useObjectStreams: compressed }));
}

/** A PDF whose catalog names its scripts as `/J#61vaScript`, which a byte search for "JavaScript" misses. */
export async function escapedNamePdf(): Promise<Buffer> {
  const text = (await plainPdf()).toString('latin1');
  return Buffer.from(text.replace('/Type /Catalog', '/Type /Catalog /Names << /J#61vaScript << >> >>'), 'latin1');
}

/** A PDF whose trailer names an encryption dictionary. */
export async function encryptedPdf(): Promise<Buffer> {
  const text = (await plainPdf()).toString('latin1');
  const encrypt = '/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >> /ID [<01> <01>]';
  return Buffer.from(text.replace(/trailer\s*<</, `trailer\n<< ${encrypt}`), 'latin1');
}

export const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2000)]);
export const png = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2000)]);
/** An HTML page: no accepted type, whatever its name says. */
export const html = () => Buffer.from('<html><script>alert(1)</script></html>');
