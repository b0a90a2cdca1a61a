/**
 * Catalogs: what is in force and importing a new file (a form upload; the same import, parser and
 * limits as `PUT /admin/catalogs/…`). A refused file changes nothing and names its first problem.
 * The form's CSRF token is a field of the upload, sent before the file (never in the URL, which
 * request logs keep).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { Type, type Static } from 'typebox';
import { catalogKinds, CatalogFileError, type CatalogKind, type CatalogImports } from '../catalogs/index.ts';
import { catalogBodyLimitBytes } from '../admin/index.ts';
import { policy } from '../http/index.ts';
import { noticeOf, pageContext, seeOther, sendPage } from './console-request.ts';
import { catalogsPage } from './catalogs.views.ts';
import { catalogRefusalText, emptyFileText, noFileText } from './catalogs-messages.ts';
import type { Notice } from './layout.ts';

export interface CatalogsPagesDeps {
  catalogs: CatalogImports;
}

/** Uploads sent without a file chosen: a browser still sends the file's part, nameless and empty. */
const noFileChosen = new WeakSet<FastifyRequest>();

const ImportForm = Type.Object({
  _csrf: Type.String(),
  kind: Type.Union(catalogKinds.map((k) => Type.Literal(k))),
  file: Type.Unsafe<Buffer>({ description: 'the catalog file' }),
});

export const catalogsRoutes =
  (deps: CatalogsPagesDeps): FastifyPluginAsync =>
  async (app) => {
    const catalogImports = deps.catalogs;

    async function show(request: FastifyRequest, reply: FastifyReply, notice?: Notice, status?: number) {
      const catalogs = await Promise.all(
        catalogKinds.map(async (kind: CatalogKind) => ({ kind, meta: await catalogImports.meta(kind) })),
      );
      return sendPage(reply, catalogsPage(pageContext(request, reply), catalogs, notice ?? noticeOf(request)), status);
    }

    app.get('/catalogs', { schema: { hide: true } }, (request, reply) => show(request, reply));

    // The upload is parsed in this scope only: its fields and the file's bytes become the body.
    await app.register(async (upload) => {
      await upload.register(fastifyMultipart, { limits: { fileSize: catalogBodyLimitBytes, files: 1, fields: 4 } });
      upload.post<{ Body: Static<typeof ImportForm> }>(
        '/catalogs/import',
        {
          bodyLimit: catalogBodyLimitBytes + 64 * 1024,
          config: policy({ csrfInUpload: true }),
          preValidation: (request, reply) => readImportForm(upload, request, reply),
          schema: { hide: true, body: ImportForm },
        },
        async (request, reply) => {
          const { kind, file } = request.body;
          if (!Buffer.isBuffer(file) || noFileChosen.has(request)) {
            return show(request, reply, { kind: 'error', text: noFileText }, 400);
          }
          if (file.length === 0) return show(request, reply, { kind: 'error', text: emptyFileText }, 400);
          try {
            await catalogImports.importFile(kind, file);
          } catch (error) {
            if (!(error instanceof CatalogFileError)) throw error;
            const text = catalogRefusalText(error.line, error.reason);
            return show(request, reply, { kind: 'error', text }, 400);
          }
          return seeOther(reply, '/console/catalogs?notice=catalog-imported');
        },
      );
    });
  };

/**
 * Reads the upload's parts in their order into the body. The CSRF token must come before the file: it
 * is checked when the file starts (or at the end when there is none), so a request without a valid
 * token is refused before a byte of its file is kept.
 */
async function readImportForm(upload: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  // Any other form is checked as every console form is (and then lacks its file).
  if (!request.isMultipart()) return csrfChecked(upload, request, reply);
  const body: Record<string, unknown> = {};
  request.body = body;
  let checked = false;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      body[part.fieldname] = part.value;
      continue;
    }
    if (!checked) {
      // Refused: the file is read to its end and dropped, so the connection stays usable.
      await csrfChecked(upload, request, reply).catch((error: unknown) => {
        part.file.resume();
        throw error;
      });
      checked = true;
    }
    body[part.fieldname] = await part.toBuffer();
    if (part.filename === '') noFileChosen.add(request);
  }
  if (!checked) await csrfChecked(upload, request, reply);
}

/** The CSRF plugin's check of `request.body._csrf`; the plugin sends its refusal, here it is thrown. */
function csrfChecked(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  return new Promise((resolve, reject) => {
    const refusing = Object.create(reply, { send: { value: (error: Error) => reject(error) } }) as FastifyReply;
    app.csrfProtection(request, refusing, () => resolve());
  });
}
