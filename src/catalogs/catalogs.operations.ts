/** What the OpenAPI document says of each catalog operation, keyed by operationId. */
import { operationTable } from '../http/index.ts';

export const catalogsOperations = operationTable({
  listYears: {
    summary: 'List model years',
    description: 'Model years that have vehicles in the catalog, sorted.',
  },
  listBrands: {
    summary: 'List brands of a model year',
    description: 'Brands with versions in that model year, sorted by name. Unknown year: 404 / 4041.',
  },
  listModels: {
    summary: 'List models of a brand in a model year',
    description: 'Unknown year or brand: 404 / 4041.',
  },
  listVersions: {
    summary: 'List versions of a model',
    description: 'A model that is not of that brand or year: 404 / 4041.',
  },
  getZipCode: {
    summary: 'Address data of a ZIP code',
    description:
      'SEPOMEX settlements, municipality, city and state of a ZIP code. Unknown: 404 / 4042; not 5 digits: 400.',
  },
});
