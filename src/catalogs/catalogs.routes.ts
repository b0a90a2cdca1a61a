/** Catalog operations 1–4 of the spec, plus the list of model years. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../http/app-error.ts';
import { ErrorResponse } from '../http/error-response.ts';
import type { CatalogStore } from './catalog-store.ts';
import { sendCatalogAnswer } from './catalog-response.ts';
import * as s from './catalogs.schemas.ts';

const notModified = Type.Null({ description: 'Not modified: the `If-None-Match` ETag is current' });
const common = { tags: ['catalogs'], security: [{ bearerAuth: [] }], produces: ['application/json', 'application/xml'] };
const listAnswers = { 200: s.CatalogueList, 304: notModified, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

export const catalogsRoutes =
  (deps: { store: CatalogStore }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const vehicles = () => deps.store.current().vehicles;

    app.get('/catalogs/years', {
      schema: { ...common, operationId: 'listYears', summary: 'List model years', description: 'Model years that have vehicles in the catalog, sorted.', response: listAnswers },
    }, (request, reply) => sendCatalogAnswer(request, reply, vehicles().years()));

    app.get('/catalogs/years/:yearId/brands', {
      schema: { ...common, operationId: 'listBrands', summary: 'List brands of a model year', description: 'Brands with versions in that model year, sorted by name. Unknown year: 404 / 4041.', params: s.YearParams, response: listAnswers },
    }, (request, reply) => {
      const answer = vehicles().brands(request.params.yearId);
      if (!answer) throw errors.catalogEntryNotFound();
      sendCatalogAnswer(request, reply, answer);
    });

    app.get('/catalogs/years/:yearId/brands/:makeId/models', {
      schema: { ...common, operationId: 'listModels', summary: 'List models of a brand in a model year', description: 'Unknown year or brand: 404 / 4041.', params: s.BrandParams, response: listAnswers },
    }, (request, reply) => {
      const answer = vehicles().models(request.params.yearId, request.params.makeId);
      if (!answer) throw errors.catalogEntryNotFound();
      sendCatalogAnswer(request, reply, answer);
    });

    app.get('/catalogs/years/:yearId/brands/:makeId/models/:modelId/versions', {
      schema: { ...common, operationId: 'listVersions', summary: 'List versions of a model', description: 'A model that is not of that brand or year: 404 / 4041.', params: s.ModelParams, response: listAnswers },
    }, (request, reply) => {
      const { yearId, makeId, modelId } = request.params;
      const answer = vehicles().versions(yearId, makeId, modelId);
      if (!answer) throw errors.catalogEntryNotFound();
      sendCatalogAnswer(request, reply, answer);
    });

    app.get('/catalogs/zip-code/:zipCode', {
      schema: {
        ...common, operationId: 'getZipCode', summary: 'Address data of a ZIP code',
        description: 'SEPOMEX settlements, municipality, city and state of a ZIP code. Unknown: 404 / 4042; not 5 digits: 400.',
        params: s.ZipParams,
        response: { ...listAnswers, 200: s.ZipCodeInformation },
      },
    }, (request, reply) => {
      const answer = deps.store.current().zipCodes.zipCode(request.params.zipCode);
      if (!answer) throw errors.zipCodeNotFound();
      sendCatalogAnswer(request, reply, answer);
    });
  };
