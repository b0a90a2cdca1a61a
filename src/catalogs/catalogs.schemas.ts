import { Type } from 'typebox';

export const Catalogue = Type.Object(
  {
    id: Type.String({ description: 'Stable integer id, as a string. XML name `Clave`.', xml: { name: 'Clave' } }),
    name: Type.String({ description: 'XML name `Nombre`.', xml: { name: 'Nombre' } }),
  },
  { $id: 'Catalogue', examples: [{ id: '63', name: 'NISSAN' }] },
);

export const CatalogueList = Type.Array(Catalogue, {
  $id: 'CatalogueList',
  description: 'Sorted by name.',
  examples: [
    [
      { id: '1061', name: 'VERSA' },
      { id: '1062', name: 'X-TRAIL' },
    ],
  ],
});

export const StateCatalog = Type.Object(
  { id: Type.String({ description: 'INEGI state code' }), name: Type.String() },
  { $id: 'StateCatalog' },
);

export const ZipCodeInformation = Type.Object(
  {
    zipCode: Type.String(),
    neighborhoods: Type.Array(Type.String()),
    municipality: Type.String(),
    city: Type.String({ description: 'The municipality where SEPOMEX gives no city.' }),
    state: StateCatalog,
  },
  {
    $id: 'ZipCodeInformation',
    examples: [
      {
        zipCode: '06700',
        neighborhoods: ['Roma Norte'],
        municipality: 'Cuauhtémoc',
        city: 'Ciudad de México',
        state: { id: '09', name: 'Ciudad de México' },
      },
    ],
  },
);

const id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, format: 'int32', description });

export const YearParams = Type.Object({ yearId: id('Model year, e.g. 2020') });
export const BrandParams = Type.Object({ yearId: id('Model year'), makeId: id('Brand id') });
export const ModelParams = Type.Object({ yearId: id('Model year'), makeId: id('Brand id'), modelId: id('Model id') });
export const ZipParams = Type.Object({ zipCode: Type.String({ pattern: '^\\d{5}$', description: 'Five digits' }) });
