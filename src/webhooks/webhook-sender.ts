/**
 * One HTTP attempt of a delivery with undici: a time limit for the whole attempt, redirects never
 * followed (a 3xx is a failure), at most a few KiB of the answer read, and the address connected
 * to checked by the URL policy after resolution, so a hostname re-pointed at an internal address
 * after it was saved is refused at send time. undici and the sender's connection pool are loaded
 * and made at its first delivery.
 */
import { isIP, type LookupFunction } from 'node:net';
import { undiciClient } from '../shared/index.ts';
import { portOf, type UrlPolicy } from './url-policy.ts';

export interface SendOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export const maxResponseBytes = 4096;

export class RefusedAddressError extends Error {
  readonly code = 'EADDRREFUSED';
}

export function createWebhookSender(options: { policy: UrlPolicy; timeoutMs: number; now?: () => number }) {
  const { policy } = options;
  const now = options.now ?? (() => performance.now());

  // The addresses a hostname resolves to are judged with the port connected to: a lookup is given no
  // port, so each port gets a connector of its own whose lookup knows it.
  const lookupFor =
    (port: number): LookupFunction =>
    (hostname, lookupOptions, callback) => {
      resolveAllowed(hostname, port, lookupOptions, callback);
    };
  function resolveAllowed(
    hostname: string,
    port: number,
    lookupOptions: Parameters<LookupFunction>[1],
    callback: Parameters<LookupFunction>[2],
  ): void {
    policy.resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map((a) => policy.addressRefusal(a.address, port)).find(Boolean);
        if (addresses.length === 0) return callback(new Error(`no address for ${hostname}`), '', 4);
        if (refused) return callback(new RefusedAddressError(`address refused: ${refused}`), '', 4);
        const all = addresses.map((a) => ({ address: a.address, family: a.family }));
        if ((lookupOptions as { all?: boolean }).all) {
          return (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        }
        callback(null, all[0].address, all[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  }
  const client = undiciClient(({ Agent, buildConnector }) => {
    const connectors = new Map<number, ReturnType<typeof buildConnector>>();
    const connectorFor = (port: number) => {
      let connector = connectors.get(port);
      if (!connector) {
        connector = buildConnector({ lookup: lookupFor(port), timeout: options.timeoutMs });
        connectors.set(port, connector);
      }
      return connector;
    };
    return new Agent({
      connect: (connectOptions, callback) => {
        const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
        return connectorFor(port)(connectOptions, callback);
      },
      keepAliveTimeout: 4000,
    });
  });

  async function send(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal?: AbortSignal,
  ): Promise<SendOutcome> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    // A literal address never goes through the lookup: check it here.
    const refused = isIP(host) ? policy.addressRefusal(host, portOf(target)) : undefined;
    if (refused) return { statusCode: null, durationMs: 0, error: `address refused: ${refused}` };
    const { request, dispatcher: agent } = await client.get();
    const started = now();
    const elapsed = () => Math.round(now() - started);
    const limit = AbortSignal.timeout(options.timeoutMs);
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'autofin-webhooks/1', ...headers },
        body,
        dispatcher: agent,
        signal: signal ? AbortSignal.any([limit, signal]) : limit,
      });
      let read = 0;
      for await (const chunk of response.body) {
        read += (chunk as Buffer).length;
        if (read >= maxResponseBytes) break;
      }
      if (read >= maxResponseBytes) response.body.destroy();
      return { statusCode: response.statusCode, durationMs: elapsed(), error: null };
    } catch (error) {
      const e = error as Error & { code?: string; cause?: Error & { code?: string } };
      const timedOut = limit.aborted;
      const cause = e.cause instanceof RefusedAddressError ? e.cause : e;
      return {
        statusCode: null,
        durationMs: elapsed(),
        error: timedOut
          ? `timed out after ${options.timeoutMs} ms`
          : (cause.message || cause.code || 'request failed').slice(0, 200),
      };
    }
  }

  return { send, close: () => client.close() };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
