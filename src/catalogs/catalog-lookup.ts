/**
 * What the lead sections need from the catalogs (docs/api.md, "Leads"): the vehicle version behind
 * `AutoLeadPayload.id`, whether a ZIP code exists, and which catalog neighborhood an address names.
 */
import { foldName, type CatalogIndex, type VersionInfo, type ZipCodeInformation } from './catalog-index.ts';

export interface NeighborhoodMatch {
  /** True when the name is one of the ZIP code's neighborhoods (ignoring case, accents, spacing). */
  matched: boolean;
  /** The catalog spelling when matched, the given name otherwise. */
  neighborhood: string;
}

export interface CatalogLookup {
  findVersion(versionId: number): VersionInfo | undefined;
  findZipCode(zipCode: string): ZipCodeInformation | undefined;
  matchNeighborhood(zipCode: string, name: string): NeighborhoodMatch;
}

/**
 * Takes a getter, not an index, so a lookup made once at wiring time always reads the index in
 * force (catalog-store swaps it when an import lands).
 */
export function createCatalogLookup(currentIndex: () => CatalogIndex): CatalogLookup {
  return {
    findVersion: (versionId) => currentIndex().vehicles.version(versionId),
    findZipCode: (zipCode) => currentIndex().zipCodes.info(zipCode),
    matchNeighborhood(zipCode, name) {
      const info = currentIndex().zipCodes.info(zipCode);
      const wanted = foldName(name);
      // A ZIP code has at most a few hundred neighborhoods and this runs once per address saved:
      // a linear scan is cheaper than keeping a folded copy of every settlement's name in memory.
      const found = wanted === '' ? undefined : info?.neighborhoods.find((n) => foldName(n) === wanted);
      return found === undefined ? { matched: false, neighborhood: name } : { matched: true, neighborhood: found };
    },
  };
}
