/**
 * Documents' sealed chunks kept in an S3-compatible bucket (`DOCUMENT_STORE=s3`, docs/operations.md,
 * "Documents"). Chunk `seq` of object `objectId` is the object `<prefix><objectId>/<seq>`: the key and the
 * object say nothing of the document (no file name, type, digest or metadata), the bytes are ciphertext.
 * Requests are kept short (a few seconds, two attempts at most) and every failure of the bucket is a
 * `DocumentStoreUnavailable`, which the caller answers with 503.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { DocumentStoreUnavailable, type DocumentStore } from './document-store.ts';

export interface S3DocumentStoreSettings {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Prefix of every key; `documents/` when not given. */
  prefix?: string;
  /** When absent, the AWS SDK's standard provider chain (environment, profile, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Longest wait for one request's answer, and for a connection; a request is tried twice at most. */
const REQUEST_TIMEOUT_MS = 5_000;
const CONNECTION_TIMEOUT_MS = 2_000;
const MAX_ATTEMPTS = 2;
/** The most keys one DeleteObjects request may name. */
const DELETE_BATCH = 1000;

export function createS3DocumentStore(settings: S3DocumentStoreSettings): DocumentStore & { close(): void } {
  const client = new S3Client(clientConfig(settings));
  const { bucket } = settings;
  const prefix = settings.prefix ?? 'documents/';
  const key = (objectId: string, seq: number) => `${prefix}${objectId}/${seq}`;
  return {
    kind: 's3',
    async putChunk(objectId, seq, body) {
      await unavailableOnFailure(() =>
        client.send(new PutObjectCommand({ Bucket: bucket, Key: key(objectId, seq), Body: body })),
      );
    },
    async getChunk(objectId, seq) {
      return readChunk(client, bucket, key(objectId, seq));
    },
    async deleteObject(objectId, chunks) {
      const keys = Array.from({ length: chunks }, (_, seq) => key(objectId, seq));
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        await deleteKeys(client, bucket, keys.slice(start, start + DELETE_BATCH));
      }
    },
    async ping() {
      await unavailableOnFailure(() => client.send(new HeadBucketCommand({ Bucket: bucket })));
    },
    close() {
      client.destroy();
    },
  };
}

function clientConfig(settings: S3DocumentStoreSettings): S3ClientConfig {
  return {
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    maxAttempts: MAX_ATTEMPTS,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // Without it a request past its timeout is only logged; the socket timeout also covers reading a body.
      throwOnRequestTimeout: true,
      socketTimeout: REQUEST_TIMEOUT_MS,
    }),
  };
}

async function readChunk(client: S3Client, bucket: string, key: string): Promise<Buffer> {
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!answer.Body) throw new Error('the bucket answered no body');
    const bytes = await answer.Body.transformToByteArray();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (isMissingKey(error)) throw new Error('document chunk not found', { cause: error });
    throw new DocumentStoreUnavailable(error);
  }
}

/** Keys already gone are reported deleted by S3, not as errors; an error listed in the answer is a failure. */
async function deleteKeys(client: S3Client, bucket: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const answer = await unavailableOnFailure(() =>
    client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    ),
  );
  const failed = answer.Errors ?? [];
  if (failed.length > 0) {
    const [first] = failed;
    throw new DocumentStoreUnavailable(new Error(`the bucket did not delete ${failed.length} chunks (${first.Code})`));
  }
}

async function unavailableOnFailure<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw new DocumentStoreUnavailable(error);
  }
}

/** NoSuchKey, or a 404 that is not a missing bucket (some S3-compatible stores answer a bare 404). */
function isMissingKey(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'NoSuchKey') return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404 && error.name !== 'NoSuchBucket';
}
