/** The partner's catalog reads of the spec, plus the list of model years. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, type AppError, empty, errorAnswers, errorCase, ok, type ErrorCase } from '../http/index.ts';
import type { CatalogAnswer } from './catalog-index.ts';
import type { CatalogStore } from './catalog-store.ts';
import { catalogReads } from './catalog-reads.ts';
import { sendCatalogAnswer } from './catalog-response.ts';
import * as s from './catalogs.schemas.ts';
import { operation } from '../http/index.ts';
import { catalogsOperations as docs } from './catalogs.operations.ts';

const notModified = empty('partner', 'Not modified: the `If-None-Match` ETag is current.', ['ETag', 'Cache-Control']);
const common = {
  tags: ['catalogs'],
  security: [{ bearerAuth: [] }],
  produces: ['application/json', 'application/xml'],
};
const unknownEntry = errorCase('No such entry in the catalog', errors.catalogEntryNotFound());
const badId = (field: string) =>
  errorCase('Not an integer id', errors.invalidInput([{ field, errorDetail: 'must be integer' }]));
/** The answers of a catalog read: its 200 (JSON, or XML on `Accept: application/xml`), a 304 and its errors. */
function answers<T extends Parameters<typeof ok>[1]>(
  list: T,
  description: string,
  bad: ErrorCase[],
  notFound: ErrorCase[],
) {
  return {
    200: ok('partner', list, description, ['ETag', 'Cache-Control']),
    304: notModified,
    ...errorAnswers({
      access: 'partner',
      cases: { ...(bad.length ? { 400: bad } : {}), ...(notFound.length ? { 404: notFound } : {}) },
    }),
  };
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CatalogAnswer<unknown> | undefined,
  notFound: () => AppError,
): void {
  if (!answer) throw notFound();
  sendCatalogAnswer(request, reply, answer);
}

export const catalogsRoutes =
  (deps: { store: CatalogStore }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const index = () => deps.store.current();
    const { years, brands, models, versions, zipCode } = catalogReads;

    app.get(
      years.path,
      {
        schema: {
          ...common,
          ...operation(docs, 'listYears'),
          response: answers(s.CatalogueList, 'The model years.', [], []),
        },
      },
      (request, reply) => send(request, reply, years.find(index(), {}), errors.catalogEntryNotFound),
    );

    app.get(
      brands.path,
      {
        schema: {
          ...common,
          ...operation(docs, 'listBrands'),
          params: s.YearParams,
          response: answers(s.CatalogueList, 'The brands, sorted by name.', [badId('yearId')], [unknownEntry]),
        },
      },
      (request, reply) => send(request, reply, brands.find(index(), request.params), errors.catalogEntryNotFound),
    );

    app.get(
      models.path,
      {
        schema: {
          ...common,
          ...operation(docs, 'listModels'),
          params: s.BrandParams,
          response: answers(s.CatalogueList, 'The models, sorted by name.', [badId('makeId')], [unknownEntry]),
        },
      },
      (request, reply) => send(request, reply, models.find(index(), request.params), errors.catalogEntryNotFound),
    );

    app.get(
      versions.path,
      {
        schema: {
          ...common,
          ...operation(docs, 'listVersions'),
          params: s.ModelParams,
          response: answers(s.CatalogueList, 'The versions, sorted by name.', [badId('modelId')], [unknownEntry]),
        },
      },
      (request, reply) => send(request, reply, versions.find(index(), request.params), errors.catalogEntryNotFound),
    );

    app.get(
      zipCode.path,
      {
        schema: {
          ...common,
          ...operation(docs, 'getZipCode'),
          params: s.ZipParams,
          response: answers(
            s.ZipCodeInformation,
            'The ZIP code’s settlements, municipality, city and state.',
            [
              errorCase(
                'Not five digits',
                errors.invalidInput([{ field: 'zipCode', errorDetail: 'must match the pattern ^\\d{5}$' }]),
              ),
            ],
            [errorCase('No such ZIP code', errors.zipCodeNotFound())],
          ),
        },
      },
      (request, reply) => send(request, reply, zipCode.find(index(), request.params), errors.zipCodeNotFound),
    );
  };
