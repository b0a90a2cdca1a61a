/**
 * A small S3-compatible server of our own for tests, on 127.0.0.1, port 0: one bucket, path-style
 * requests only (`/<bucket>/<key>`). It answers PutObject, GetObject, HeadBucket and DeleteObjects, keeps
 * each object's bytes in `objects` (so a test sees exactly what the store wrote) and records every
 * request. Each request's SigV4 signature is checked by signing the request again with the known
 * credentials (`SignatureDoesNotMatch`, 403, when it differs), its payload against `x-amz-content-sha256`
 * and its body against the CRC32 / MD5 checksum the SDK sends with it. `stop()` makes the bucket
 * unreachable (listening socket closed, connections destroyed), `start()` listens again on the same port.
 *
 * What the AWS SDK sends here (plain http): a PutObject body as is, not `aws-chunked`, signed with its real
 * SHA-256 in `x-amz-content-sha256`, with `x-amz-checksum-crc32` and `x-amz-sdk-checksum-algorithm`; a
 * DeleteObjects body with a CRC32 checksum instead of Content-MD5; GetObject with `x-amz-checksum-mode:
 * ENABLED`, to which the server answers the object's CRC32, which the SDK checks.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { SignatureV4 } from '@smithy/signature-v4';

export interface S3ServerOptions {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The region requests are signed for; us-east-1 when not given. */
  region?: string;
}

export interface S3Server {
  /** `http://127.0.0.1:<port>`, for the client's `endpoint` (with `forcePathStyle`). */
  endpoint: string;
  /** Object key (without the bucket) → stored bytes. */
  objects: Map<string, Buffer>;
  /** Every request received, in order; `key` is '' for a request on the bucket itself. */
  requests: { method: string; key: string }[];
  /** Closes the listening socket and destroys every connection: the bucket cannot be reached. */
  stop(): Promise<void>;
  /** Listens again on the same port after `stop()`. */
  start(): Promise<void>;
  /** Ends the server for good. */
  close(): Promise<void>;
}

interface S3Request {
  method: string;
  rawPath: string;
  query: Record<string, string>;
  bucket: string;
  key: string;
  body: Buffer;
  req: IncomingMessage;
}

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function startS3Server(options: S3ServerOptions): Promise<S3Server> {
  const objects = new Map<string, Buffer>();
  const requests: { method: string; key: string }[] = [];
  const region = options.region ?? 'us-east-1';
  const signer = new SignatureV4({
    service: 's3',
    region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: true,
  });
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => fail(res, error));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req);
    requests.push({ method: request.method, key: request.key });
    await verifySignature(signer, options.accessKeyId, request);
    verifyPayload(request);
    if (request.bucket !== options.bucket)
      throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist');
    answer(request, res, objects);
  }

  let port = 0;
  let closed = false;
  async function start(): Promise<void> {
    if (closed) throw new Error('the S3 server is closed');
    if (server.listening) return;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
  }
  async function stop(): Promise<void> {
    if (!server.listening) return;
    const closing = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closing;
  }
  await start();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    start,
    stop,
    async close() {
      closed = true;
      await stop();
    },
  };
}

async function readRequest(req: IncomingMessage): Promise<S3Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = new URL(req.url ?? '/', 'http://localhost');
  const [, bucket = '', ...rest] = url.pathname.split('/');
  return {
    method: req.method ?? 'GET',
    rawPath: url.pathname,
    query: Object.fromEntries(url.searchParams),
    bucket: decodeURIComponent(bucket),
    key: rest.map((segment) => decodeURIComponent(segment)).join('/'),
    body: Buffer.concat(chunks),
    req,
  };
}

/** Signs the request again, over the headers the client says it signed, and compares the two. */
async function verifySignature(signer: SignatureV4, accessKeyId: string, request: S3Request): Promise<void> {
  const { req } = request;
  const authorization = req.headers.authorization ?? '';
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/[^,]+, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
    authorization,
  );
  if (!parts) throw new S3Failure(403, 'AccessDenied', 'Missing or malformed Authorization header');
  if (parts[1] !== accessKeyId) throw new S3Failure(403, 'InvalidAccessKeyId', 'The access key does not exist');
  const signed = parts[2].split(';');
  const headers: Record<string, string> = {};
  for (const name of signed) headers[name] = headerValue(req, name);
  const resigned = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: request.rawPath,
      query: request.query,
      headers,
      body: request.body,
    },
    { signingDate: amzDate(headerValue(req, 'x-amz-date')), signableHeaders: new Set(signed) },
  );
  if (resigned.headers.authorization !== authorization) {
    throw new S3Failure(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match');
  }
}

/** The body against the SHA-256 it was signed with and the checksums sent with it. */
function verifyPayload({ req, body }: S3Request): void {
  const contentSha256 = headerValue(req, 'x-amz-content-sha256');
  if (contentSha256.startsWith('STREAMING-') || /aws-chunked/.test(headerValue(req, 'content-encoding'))) {
    throw new S3Failure(501, 'NotImplemented', 'aws-chunked bodies are not supported by this server');
  }
  if (contentSha256 !== 'UNSIGNED-PAYLOAD' && contentSha256 !== createHash('sha256').update(body).digest('hex')) {
    throw new S3Failure(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 does not match');
  }
  const crc = headerValue(req, 'x-amz-checksum-crc32');
  if (crc && crc !== crc32Of(body)) throw new S3Failure(400, 'BadDigest', 'The CRC32 you specified did not match');
  const md5 = headerValue(req, 'content-md5');
  if (md5 && md5 !== createHash('md5').update(body).digest('base64')) {
    throw new S3Failure(400, 'BadDigest', 'The Content-MD5 you specified did not match');
  }
}

function answer(request: S3Request, res: ServerResponse, objects: Map<string, Buffer>): void {
  const { method, key } = request;
  if (method === 'HEAD' && key === '') {
    res.writeHead(200).end();
  } else if (method === 'PUT' && key !== '') {
    objects.set(key, Buffer.from(request.body));
    res.writeHead(200, { etag: etag(request.body), 'x-amz-checksum-crc32': crc32Of(request.body) }).end();
  } else if (method === 'GET' && key !== '') {
    getObject(request, res, objects);
  } else if (method === 'POST' && key === '' && 'delete' in request.query) {
    deleteObjects(request, res, objects);
  } else {
    throw new S3Failure(501, 'NotImplemented', `${method} ${request.rawPath} is not supported by this server`);
  }
}

function getObject({ key, req }: S3Request, res: ServerResponse, objects: Map<string, Buffer>): void {
  const body = objects.get(key);
  if (!body) throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
  const checksum =
    headerValue(req, 'x-amz-checksum-mode') === 'ENABLED' ? { 'x-amz-checksum-crc32': crc32Of(body) } : {};
  res
    .writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': body.length,
      etag: etag(body),
      ...checksum,
    })
    .end(body);
}

function deleteObjects({ body }: S3Request, res: ServerResponse, objects: Map<string, Buffer>): void {
  const xml = body.toString('utf8');
  const keys = [...xml.matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((match) => unescapeXml(match[1]));
  if (keys.length > 1000) throw new S3Failure(400, 'MalformedXML', 'More than 1000 keys in one request');
  for (const key of keys) objects.delete(key);
  const quiet = /<Quiet>\s*true\s*<\/Quiet>/.test(xml);
  const deleted = quiet ? '' : keys.map((key) => `<Deleted><Key>${escapeXml(key)}</Key></Deleted>`).join('');
  const result = `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${deleted}</DeleteResult>`;
  res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${result}`);
}

function fail(res: ServerResponse, error: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const failure =
    error instanceof S3Failure ? error : new S3Failure(500, 'InternalError', String((error as Error)?.message));
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${failure.code}</Code>` +
    `<Message>${escapeXml(failure.message)}</Message><RequestId>fake-s3</RequestId></Error>`;
  res.writeHead(failure.status, { 'content-type': 'application/xml' });
  res.end(res.req.method === 'HEAD' ? undefined : xml);
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/** `20260101T120000Z` → its Date. */
function amzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) throw new S3Failure(403, 'AccessDenied', 'Missing or malformed x-amz-date');
  const [, y, mo, d, h, mi, s] = match;
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

function crc32Of(body: Buffer): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(body));
  return bytes.toString('base64');
}

function etag(body: Buffer): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function unescapeXml(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] !== '#') return named[entity.toLowerCase()];
    return String.fromCodePoint(entity[1] === 'x' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
  });
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

/** SHA-256 (and its HMAC when given a secret) on node:crypto, for the signer. */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.create();
  }
  update(data: SourceData): void {
    this.hash.update(toBytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.create();
  }
  private create(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBytes(this.secret));
  }
}

function toBytes(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}
