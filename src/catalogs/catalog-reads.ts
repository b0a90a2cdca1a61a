/**
 * The partner's catalog reads (the spec's and the model years): each one's path under the API prefix and the
 * index lookup that answers it (undefined: not in the catalog).
 */
import type { CatalogAnswer, CatalogIndex } from './catalog-index.ts';

export interface CatalogRead<P> {
  readonly path: string;
  find(index: CatalogIndex, params: P): CatalogAnswer<unknown> | undefined;
}

const read = <P>(
  path: string,
  find: (index: CatalogIndex, params: P) => CatalogAnswer<unknown> | undefined,
): CatalogRead<P> => ({ path, find });

type Ids<K extends string> = Readonly<Record<K, number>>;

export const catalogReads = {
  years: read<object>('/catalogs/years', (c) => c.vehicles.years()),
  brands: read<Ids<'yearId'>>('/catalogs/years/:yearId/brands', (c, p) => c.vehicles.brands(p.yearId)),
  models: read<Ids<'yearId' | 'makeId'>>('/catalogs/years/:yearId/brands/:makeId/models', (c, p) =>
    c.vehicles.models(p.yearId, p.makeId),
  ),
  versions: read<Ids<'yearId' | 'makeId' | 'modelId'>>(
    '/catalogs/years/:yearId/brands/:makeId/models/:modelId/versions',
    (c, p) => c.vehicles.versions(p.yearId, p.makeId, p.modelId),
  ),
  zipCode: read<{ readonly zipCode: string }>('/catalogs/zip-code/:zipCode', (c, p) => c.zipCodes.zipCode(p.zipCode)),
};
