/**
 * A fake Círculo de Crédito on a loopback port: it checks each request as Círculo does (path, API
 * key, user and password headers, JSON body, the body's `x-signature` against the lender's public
 * key) and answers the scenario the test chose, signing its 200 answers with "Círculo's" key.
 * A request that fails a check is answered 401 and recorded with the reason.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { signBody, verifyBody } from '../../src/bureau/circulo-signature.ts';
import { badRequest, delinquentHistory, excellentHistory, personNotFound, serverError } from './examples.ts';

export type Scenario =
  | 'excellent'
  | 'delinquent'
  | 'not-found'
  | 'no-content'
  | 'bad-request'
  | 'server-error'
  | 'hang'
  | 'bad-signature'
  | 'unsigned'
  | 'unreadable';

export interface ReceivedRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: Record<string, unknown> | null;
  signatureValid: boolean;
  refused: string | null;
}

export interface FakeCirculoOptions {
  lenderPublicKey: KeyObject | null;
  circuloPrivateKey: KeyObject;
  apiKey: string;
  username?: string;
  password?: string;
  /** The path prefix of the base URL, e.g. `/sandbox`. */
  basePath: string;
}

export async function startFakeCirculo(options: FakeCirculoOptions) {
  const received: ReceivedRequest[] = [];
  let scenario: Scenario = 'excellent';
  const sockets = new Set<import('node:net').Socket>();

  const send = (res: ServerResponse, status: number, body: unknown, signature?: string) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}) });
    res.end(text);
  };
  const sendSigned = (res: ServerResponse, body: unknown) =>
    send(res, 200, body, signBody(JSON.stringify(body), options.circuloPrivateKey));

  function check(request: ReceivedRequest): string | null {
    const h = request.headers;
    if (request.method !== 'POST') return 'method';
    if (request.url !== `${options.basePath}/v2/rccficoscore`) return 'path';
    if (h['x-api-key'] !== options.apiKey) return 'x-api-key';
    if (!String(h['content-type']).startsWith('application/json')) return 'content-type';
    if (h.authorization !== undefined) return 'authorization (Círculo uses its own headers)';
    if (!request.body) return 'body is not JSON';
    if (options.lenderPublicKey) {
      if (h.username !== options.username || h.password !== options.password) return 'username/password';
      if (!request.signatureValid) return 'x-signature';
    }
    return null;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* recorded as null */
      }
      const signature = req.headers['x-signature'];
      const request: ReceivedRequest = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        raw,
        body,
        refused: null,
        signatureValid:
          options.lenderPublicKey !== null &&
          verifyBody(raw, typeof signature === 'string' ? signature : undefined, options.lenderPublicKey),
      };
      request.refused = check(request);
      received.push(request);
      if (request.refused)
        return send(res, 401, { errores: [{ codigo: '401.1', mensaje: `refused: ${request.refused}` }] });
      const now = new Date();
      switch (scenario) {
        case 'excellent':
          return sendSigned(res, excellentHistory(now));
        case 'delinquent':
          return sendSigned(res, delinquentHistory(now));
        case 'not-found':
          return send(res, 404, personNotFound);
        case 'no-content':
          res.writeHead(204);
          return res.end();
        case 'bad-request':
          return send(res, 400, badRequest);
        case 'server-error':
          return send(res, 500, serverError);
        case 'hang':
          return; // never answers
        case 'bad-signature': {
          // Signed over other bytes than those sent: what a tampered answer looks like.
          const body = excellentHistory(now);
          return send(
            res,
            200,
            body,
            signBody(
              JSON.stringify({ ...body, scores: [{ nombreScore: 'FICO', valor: 850 }] }),
              options.circuloPrivateKey,
            ),
          );
        }
        case 'unsigned':
          return send(res, 200, excellentHistory(now));
        case 'unreadable': {
          res.writeHead(200, {
            'content-type': 'application/json',
            'x-signature': signBody('<html>', options.circuloPrivateKey),
          });
          return res.end('<html>');
        }
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}${options.basePath}`,
    received,
    answer(next: Scenario) {
      scenario = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeCirculo = Awaited<ReturnType<typeof startFakeCirculo>>;
