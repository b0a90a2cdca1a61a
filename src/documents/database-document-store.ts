/**
 * Documents' sealed chunks kept in the service's own database (`DOCUMENT_STORE=database`, the default,
 * docs/operations.md, "Documents"): a backup of the database holds them with everything else.
 */
import type { Queryable } from '../db/index.ts';
import type { DocumentStore } from './document-store.ts';

// Chunks cross the driver as base64 text: the embedded engine's own conversion of binary parameters and
// results goes byte by byte in JavaScript (seconds for 10 MiB), base64 is a native conversion either side.

export function createDatabaseDocumentStore(db: Queryable & { ping(): Promise<boolean> }): DocumentStore {
  return {
    kind: 'database',
    async putChunk(objectId, seq, body) {
      await db.query(
        `insert into document_chunks (object_id, seq, body) values ($1, $2, decode($3, 'base64'))
         on conflict (object_id, seq) do update set body = excluded.body`,
        [objectId, seq, body.toString('base64')],
      );
    },
    async getChunk(objectId, seq) {
      const { rows } = await db.query<{ body: string }>(
        `select encode(body, 'base64') as body from document_chunks where object_id = $1 and seq = $2`,
        [objectId, seq],
      );
      if (!rows[0]) throw new Error('document chunk not found');
      return Buffer.from(rows[0].body, 'base64');
    },
    async deleteObject(objectId) {
      await db.query('delete from document_chunks where object_id = $1', [objectId]);
    },
    async ping() {
      if (!(await db.ping())) throw new Error('the database does not answer');
    },
  };
}
