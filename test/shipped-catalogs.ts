/**
 * For the catalog tests: the shipped files whole in `npm run test:reliability`, and in `npm test` a folder
 * with a slice of them (test/volume.ts), the vehicles of 2020 and the ZIP codes of Mexico City (06…) and
 * Monterrey (64…), as the shipped files write them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fullVolume } from './volume.ts';
import { shippedCatalogDir, shippedCatalogFiles } from '../src/catalogs/catalog-store.ts';

function shippedSlice(): string {
  const dir = mkdtempSync(join(tmpdir(), 'autofin-shipped-'));
  const keep = { vehicles: ['2020,'], zipCodes: ['06', '64'] } as const;
  for (const kind of ['vehicles', 'zipCodes'] as const) {
    const lines = gunzipSync(readFileSync(new URL(shippedCatalogFiles[kind], shippedCatalogDir)))
      .toString('utf8')
      .split('\n');
    const slice = [lines[0], ...lines.slice(1).filter((line) => keep[kind].some((start) => line.startsWith(start)))];
    writeFileSync(join(dir, shippedCatalogFiles[kind]), gzipSync(slice.join('\n')));
  }
  return dir;
}

/** The folder of the slice; undefined at full volume (the shipped folder itself). */
export const shippedDir = fullVolume ? undefined : shippedSlice();

/** A shipped file's bytes (gzip), whole or sliced. */
export const shippedFile = (kind: keyof typeof shippedCatalogFiles): Buffer =>
  shippedDir
    ? readFileSync(join(shippedDir, shippedCatalogFiles[kind]))
    : readFileSync(new URL(shippedCatalogFiles[kind], shippedCatalogDir));
