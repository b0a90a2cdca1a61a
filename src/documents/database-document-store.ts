/**
 * Documents' sealed chunks kept in the service's own database (`DOCUMENT_STORE=database`, the default,
 * docs/operations.md, "Documents"): a backup of the database holds them with everything else.
 */
import type { Db, Queryable } from '../db/index.ts';
import type { DocumentStore } from './document-store.ts';

// On the embedded engine chunks cross the driver as base64 text: its own conversion of binary parameters
// and results goes byte by byte in JavaScript (seconds for 10 MiB), base64 is a native conversion either
// side. PostgreSQL's driver sends and reads bytea as it is.

export function createDatabaseDocumentStore(db: Queryable & Pick<Db, 'engine' | 'ping'>): DocumentStore {
  const asText = db.engine === 'pglite';
  return {
    kind: 'database',
    async putChunk(objectId, seq, body) {
      await db.query(
        `insert into document_chunks (object_id, seq, body) values ($1, $2, ${asText ? "decode($3, 'base64')" : '$3'})
         on conflict (object_id, seq) do update set body = excluded.body`,
        [objectId, seq, asText ? body.toString('base64') : body],
      );
    },
    async getChunk(objectId, seq) {
      const { rows } = await db.query<{ body: string | Buffer }>(
        `select ${asText ? "encode(body, 'base64') as body" : 'body'} from document_chunks
         where object_id = $1 and seq = $2`,
        [objectId, seq],
      );
      if (!rows[0]) throw new Error('document chunk not found');
      const { body } = rows[0];
      return typeof body === 'string' ? Buffer.from(body, 'base64') : body;
    },
    async deleteObject(objectId) {
      await db.query('delete from document_chunks where object_id = $1', [objectId]);
    },
    async ping() {
      if (!(await db.ping())) throw new Error('the database does not answer');
    },
  };
}
