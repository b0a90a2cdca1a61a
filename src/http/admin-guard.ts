/** Guards the admin API and metrics with `Authorization: Bearer $ADMIN_TOKEN`. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { errors } from './app-error.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function registerAdminGuard(scope: FastifyInstance, adminToken: string): void {
  const expected = digest(`Bearer ${adminToken}`);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw errors.missingToken();
    // Compare digests so the check takes the same time whatever the header's length.
    if (!timingSafeEqual(digest(header), expected)) throw errors.unauthorized('invalid admin token');
  });
}
