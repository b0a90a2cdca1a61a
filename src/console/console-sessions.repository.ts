/** SQL of console sessions. A session is found only while it is live and its operator is not deleted. */
import type { Queryable } from '../db/index.ts';
import type { Role } from '../shared/index.ts';

export interface SessionOperator {
  operatorId: string;
  name: string;
  role: Role;
  email: string | null;
  lastSeenAt: Date;
}

export function createConsoleSessionsRepository(db: Queryable) {
  return {
    async insert(session: { tokenHash: string; operatorId: string; at: Date; expiresAt: Date }): Promise<void> {
      await db.query(
        `insert into console_sessions (token_hash, operator_id, created_at, last_seen_at, expires_at)
         values ($1, $2, $3, $3, $4)`,
        [session.tokenHash, session.operatorId, session.at, session.expiresAt],
      );
    },

    /** The live session's operator: not expired, not idle since `idleSince`, operator not deleted. */
    async find(tokenHash: string, now: Date, idleSince: Date): Promise<SessionOperator | undefined> {
      type Row = { id: string; name: string; role: Role; email: string | null; last_seen_at: Date };
      const { rows } = await db.query<Row>(
        `select o.id, o.name, o.role, o.email, s.last_seen_at
         from console_sessions s join operators o on o.id = s.operator_id and o.deleted_at is null
         where s.token_hash = $1 and s.expires_at > $2 and s.last_seen_at > $3`,
        [tokenHash, now, idleSince],
      );
      const row = rows[0];
      return (
        row && {
          operatorId: row.id,
          name: row.name,
          role: row.role,
          email: row.email,
          lastSeenAt: row.last_seen_at,
        }
      );
    },

    async touch(tokenHash: string, at: Date): Promise<void> {
      await db.query('update console_sessions set last_seen_at = $2 where token_hash = $1', [tokenHash, at]);
    },

    async remove(tokenHash: string): Promise<void> {
      await db.query('delete from console_sessions where token_hash = $1', [tokenHash]);
    },

    /** Ends every session of an operator; how many there were. */
    async removeAllOf(operatorId: string): Promise<number> {
      const { rowCount } = await db.query('delete from console_sessions where operator_id = $1', [operatorId]);
      return rowCount ?? 0;
    },

    /** Forgets sessions that can no longer be used. */
    async removeDead(now: Date, idleSince: Date): Promise<number> {
      const { rowCount } = await db.query('delete from console_sessions where expires_at <= $1 or last_seen_at <= $2', [
        now,
        idleSince,
      ]);
      return rowCount ?? 0;
    },
  };
}

export type ConsoleSessionsRepository = ReturnType<typeof createConsoleSessionsRepository>;
