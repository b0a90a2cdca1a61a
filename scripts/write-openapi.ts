/**
 * Writes the OpenAPI document of the service (the same one served at
 * /mx/b2b/autofin/api/openapi.json) to a file, or to stdout without an argument.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { createContainer } from '../src/composition.ts';
import { loadConfig } from '../src/config/config.ts';
import { openPgliteDb } from '../src/db/pglite-db.ts';
import { systemClock } from '../src/shared/clock.ts';

const config = loadConfig({
  ADMIN_TOKEN: 'document-the-admin-api',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'autofin-openapi-')),
});
const db = await openPgliteDb(undefined);
const container = await createContainer({
  config,
  db,
  clock: systemClock,
  signingKey: randomBytes(32),
  encryptionKey: randomBytes(32),
  warn: () => {},
});
const app = await buildApp({ container, logLevel: 'silent' });
await app.ready();
const document = JSON.stringify(app.swagger(), null, 2);
await app.close();
await container.close();
await db.close();

const target = process.argv[2];
if (target) writeFileSync(target, `${document}\n`);
else process.stdout.write(`${document}\n`);
