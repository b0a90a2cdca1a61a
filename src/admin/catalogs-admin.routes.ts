/**
 * Catalog import for operators: `PUT /admin/catalogs/vehicles` and `PUT /admin/catalogs/zip-codes`
 * take a whole catalog file (CSV, optionally gzip) as the body and replace that catalog at once.
 * A refused file changes nothing: the store parses every row before the one replacing transaction.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  AppError,
  errors,
  errorAnswers,
  errorCase,
  ok,
  registerAdminGuard,
  type OperatorResolver,
} from '../http/index.ts';
import {
  CatalogFileError,
  type CatalogKind,
  type CatalogImportResult,
  type CatalogImports,
} from '../catalogs/index.ts';
import { operation } from '../http/index.ts';
import { adminOperations as docs } from './admin.operations.ts';

/** Several times the real ZIP catalog as CSV: room for growth, still a bound. Only these routes get it. */
export const catalogBodyLimitBytes = 64 * 1024 * 1024;
export const catalogFileMediaTypes = ['application/gzip', 'application/octet-stream', 'text/csv'];

const routes: readonly {
  path: string;
  kind: CatalogKind;
  operationId: 'importVehicleCatalog' | 'importZipCodeCatalog';
}[] = [
  { path: '/admin/catalogs/vehicles', kind: 'vehicles', operationId: 'importVehicleCatalog' },
  { path: '/admin/catalogs/zip-codes', kind: 'zipCodes', operationId: 'importZipCodeCatalog' },
];

export const CatalogImport = Type.Object(
  {
    kind: Type.Union([Type.Literal('vehicles'), Type.Literal('zipCodes')]),
    rowCount: Type.Integer({ minimum: 1 }),
    sha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'sha256 of the bytes sent, as catalog_meta records it',
    }),
  },
  {
    $id: 'CatalogImport',
    examples: [
      {
        kind: 'zipCodes',
        rowCount: 155847,
        sha256: '9f91290c74e3da8d7af11098644bd3720ec852884a025df1d19bae615b342cc5',
      },
    ],
  },
);

/** A refused file is a 400 / 40015 naming the line (or the file as a whole) and why. */
function refusedFile(error: CatalogFileError): AppError {
  const field = error.line > 0 ? `line ${error.line}` : 'file';
  const base = errors.invalidInput([{ field, errorDetail: error.reason }]);
  return new AppError(base.statusCode, base.code, base.message, { ...base.additionalData, line: error.line });
}

/** Runs before schema validation (which would turn an absent body into `{}`). */
async function requireFileBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) {
    throw errors.invalidInput([{ field: 'file', errorDetail: 'the request has no body: send the catalog file' }]);
  }
  // The JSON parser of the parent scope also reaches these routes: a JSON body is not a file.
  if (!Buffer.isBuffer(request.body)) throw errors.unsupportedMediaType();
}

async function importCatalog(
  deps: { imports: CatalogImports },
  kind: CatalogKind,
  body: Buffer,
): Promise<CatalogImportResult> {
  try {
    return await deps.imports.importFile(kind, body);
  } catch (error) {
    if (error instanceof CatalogFileError) throw refusedFile(error);
    throw error;
  }
}

export const catalogsAdminRoutes =
  (deps: { imports: CatalogImports; adminToken: string; operators?: OperatorResolver }): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerAdminGuard(app, deps.adminToken, deps.operators);
    // Raw bytes, in this plugin only: the rest of the API keeps JSON and the service's body limit.
    app.addContentTypeParser(
      catalogFileMediaTypes,
      { parseAs: 'buffer', bodyLimit: catalogBodyLimitBytes },
      (_request, body, done) => done(null, body),
    );

    for (const { path, kind, operationId } of routes) {
      app.put(
        path,
        {
          bodyLimit: catalogBodyLimitBytes,
          preValidation: requireFileBody,
          schema: {
            tags: ['admin'],
            security: [{ adminToken: [] }],
            ...operation(docs, operationId),
            consumes: catalogFileMediaTypes,
            // Documents the body only: any bytes pass here, the catalog parser is the real check.
            body: Type.Unknown({ description: 'The catalog file (CSV, or CSV compressed with gzip)' }),
            response: {
              200: ok('admin', CatalogImport, 'Imported: the catalog now in force.'),
              ...errorAnswers({
                access: 'admin',
                body: true,
                cases: {
                  400: [
                    errorCase('A malformed line', refusedFile(new CatalogFileError(2, 'expected 15 columns, found 3'))),
                  ],
                },
                descriptions: docs[operationId].errorDescriptions,
              }),
            },
          },
        },
        async (request) => importCatalog(deps, kind, request.body as Buffer),
      );
    }
  };
