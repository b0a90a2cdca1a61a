/** Catalog operations 1–4 of the spec, plus the list of model years. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors, type AppError } from '../http/app-error.ts';
import { ErrorResponse } from '../http/error-response.ts';
import type { CatalogAnswer } from './catalog-index.ts';
import type { CatalogStore } from './catalog-store.ts';
import { catalogReads } from './catalog-reads.ts';
import { sendCatalogAnswer } from './catalog-response.ts';
import * as s from './catalogs.schemas.ts';

const notModified = Type.Null({ description: 'Not modified: the `If-None-Match` ETag is current' });
const common = { tags: ['catalogs'], security: [{ bearerAuth: [] }], produces: ['application/json', 'application/xml'] };
const listAnswers = { 200: s.CatalogueList, 304: notModified, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

function send(request: FastifyRequest, reply: FastifyReply, answer: CatalogAnswer<unknown> | undefined, notFound: () => AppError): void {
  if (!answer) throw notFound();
  sendCatalogAnswer(request, reply, answer);
}

export const catalogsRoutes =
  (deps: { store: CatalogStore }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const index = () => deps.store.current();
    const { years, brands, models, versions, zipCode } = catalogReads;

    app.get(years.path, {
      schema: { ...common, operationId: 'listYears', summary: 'List model years', description: 'Model years that have vehicles in the catalog, sorted.', response: listAnswers },
    }, (request, reply) => send(request, reply, years.find(index(), {}), errors.catalogEntryNotFound));

    app.get(brands.path, {
      schema: { ...common, operationId: 'listBrands', summary: 'List brands of a model year', description: 'Brands with versions in that model year, sorted by name. Unknown year: 404 / 4041.', params: s.YearParams, response: listAnswers },
    }, (request, reply) => send(request, reply, brands.find(index(), request.params), errors.catalogEntryNotFound));

    app.get(models.path, {
      schema: { ...common, operationId: 'listModels', summary: 'List models of a brand in a model year', description: 'Unknown year or brand: 404 / 4041.', params: s.BrandParams, response: listAnswers },
    }, (request, reply) => send(request, reply, models.find(index(), request.params), errors.catalogEntryNotFound));

    app.get(versions.path, {
      schema: { ...common, operationId: 'listVersions', summary: 'List versions of a model', description: 'A model that is not of that brand or year: 404 / 4041.', params: s.ModelParams, response: listAnswers },
    }, (request, reply) => send(request, reply, versions.find(index(), request.params), errors.catalogEntryNotFound));

    app.get(zipCode.path, {
      schema: {
        ...common, operationId: 'getZipCode', summary: 'Address data of a ZIP code',
        description: 'SEPOMEX settlements, municipality, city and state of a ZIP code. Unknown: 404 / 4042; not 5 digits: 400.',
        params: s.ZipParams,
        response: { ...listAnswers, 200: s.ZipCodeInformation },
      },
    }, (request, reply) => send(request, reply, zipCode.find(index(), request.params), errors.zipCodeNotFound));
  };
