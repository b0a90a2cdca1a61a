/**
 * Círculo de Crédito (BUREAU_PROVIDER=circulo): its consolidated credit report with FICO Score, one
 * signed JSON POST per verified lead, set up as docs/bureau-circulo.md describes. In production
 * every request body is signed with the lender's key and every 200 must carry Círculo's signature;
 * in simulation (Círculo's test API) only the API key is sent and nothing is signed. undici and the
 * connection pool are loaded and made in the background once the adapter is made.
 */
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { CirculoSettings } from '../config/index.ts';
import { classifyThrown, describeError, readBoundedText, type ProviderResult } from '../providers/index.ts';
import { undiciClient, type Clock } from '../shared/index.ts';
import { buildCirculoRequest } from './circulo-request.ts';
import { isPersonNotFound, noRecordReport, parseCirculoReport } from './circulo-response.ts';
import { signBody, verifyBody } from './circulo-signature.ts';
import type { BureauAnswer, BureauProvider, BureauSubject } from './report.ts';

export type CirculoBureau = BureauProvider & { close(): Promise<void> };

/** A full report is tens of KiB; the bound keeps a broken answer from filling memory. */
const MAX_REPORT_BYTES = 2 * 1024 * 1024;
export const CIRCULO_REPORT_PATH = '/v2/rccficoscore';

/** The operation's URL: a path already in the base URL (a sandbox's `/sandbox`) is kept. */
export function circuloEndpoint(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${CIRCULO_REPORT_PATH}`;
  return url.toString();
}

type Outcome = ProviderResult<BureauAnswer>;

export function createCirculoBureau(settings: CirculoSettings, clock: Clock): CirculoBureau {
  const client = undiciClient(
    ({ Agent }) =>
      new Agent({
        keepAliveTimeout: 10_000,
        connections: 32,
        ...(settings.tls ? { connect: { cert: settings.tls.cert, key: settings.tls.key } } : {}),
      }),
  );
  client.warm();
  const url = circuloEndpoint(settings.baseUrl);
  const production = settings.mode === 'production';

  function headersFor(body: string): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-api-key': settings.apiKey,
    };
    if (production) {
      headers.username = settings.username!;
      headers.password = settings.password!;
      headers['x-signature'] = signBody(body, settings.privateKey!);
    }
    return headers;
  }

  /** A folio for a "not found" answer, which carries none: stable for the person and the moment. */
  const noRecordFolio = (subject: BureauSubject, at: string) =>
    `CDC-NR-${createHash('sha256').update(`${subject.rfc}|${at}`).digest('hex').slice(0, 12).toUpperCase()}`;

  async function outcomeOf(
    response: Dispatcher.ResponseData,
    subject: BureauSubject,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const status = response.statusCode;
    const queriedAt = clock.now().toISOString();
    if (status === 204) {
      await response.body.dump({ limit: 64 * 1024, signal });
      return { ok: true, value: { report: noRecordReport(noRecordFolio(subject, queriedAt), queriedAt), raw: '' } };
    }
    if (status === 404) {
      const text = await readBoundedText(response.body, 64 * 1024);
      if (text !== null && isPersonNotFound(parseJson(text))) {
        return { ok: true, value: { report: noRecordReport(noRecordFolio(subject, queriedAt), queriedAt), raw: text } };
      }
      return { ok: false, kind: 'rejected', detail: 'HTTP 404' };
    }
    if (status !== 200) {
      await response.body.dump({ limit: 64 * 1024, signal });
      return { ok: false, kind: status >= 400 && status < 500 ? 'rejected' : 'error', detail: `HTTP ${status}` };
    }
    const text = await readBoundedText(response.body, MAX_REPORT_BYTES);
    if (text === null) return { ok: false, kind: 'error', detail: 'report too large' };
    if (production) {
      const signature = response.headers['x-signature'];
      if (!verifyBody(text, Array.isArray(signature) ? signature[0] : signature, settings.circuloKey!)) {
        return {
          ok: false,
          kind: 'error',
          detail: signature ? 'response signature does not verify' : 'response has no signature',
        };
      }
    }
    const report = parseCirculoReport(parseJson(text), queriedAt);
    return report
      ? { ok: true, value: { report, raw: text } }
      : { ok: false, kind: 'error', detail: 'report is not readable' };
  }

  return {
    name: 'circulo',
    async query(subject, signal) {
      const built = buildCirculoRequest(subject);
      if (!built.ok) return { ok: false, kind: 'rejected', detail: built.reason };
      const body = JSON.stringify(built.body);
      try {
        const { request, dispatcher: agent } = await client.get();
        const response = await request(url, {
          method: 'POST',
          headers: headersFor(body),
          body,
          signal,
          dispatcher: agent,
        });
        return await outcomeOf(response, subject, signal);
      } catch (err) {
        return { ok: false, kind: classifyThrown(err, signal), detail: describeError(err) };
      }
    },
    close: () => client.close(),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
