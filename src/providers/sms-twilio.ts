/**
 * SMS through Twilio's Messages REST API (SMS_PROVIDER=twilio). One POST per message over a
 * keep-alive connection pool; the outcome is a value: 2xx ok, 4xx rejected (601002), 5xx and
 * anything unexpected error (601003), no answer timeout (601001). The base URL is configurable
 * (TWILIO_BASE_URL) so tests and regional edges can stand in for api.twilio.com. undici and the
 * pool are loaded and made at the first message.
 */
import type { Dispatcher } from 'undici';
import { undiciClient } from '../shared/index.ts';
import { classifyThrown, describeError, readBoundedText } from './outbound.ts';
import type { ProviderResult, SmsSender } from './ports.ts';

export interface TwilioSmsConfig {
  accountSid: string;
  authToken: string;
  /** A sender number (E.164) or a Messaging Service SID (MG…). */
  from: string;
  baseUrl: string;
  /** Shared connection pool; when absent the sender owns one and closes it in close(). */
  dispatcher?: Dispatcher;
}

export type TwilioSmsSender = SmsSender & { close(): Promise<void> };

/** Twilio error bodies are small JSON objects; anything bigger is not worth reading. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

const MESSAGING_SERVICE_SID = /^MG[0-9a-f]{32}$/i;

export function createTwilioSmsSender(config: TwilioSmsConfig): TwilioSmsSender {
  const client = undiciClient(
    ({ Agent }) => new Agent({ keepAliveTimeout: 10_000, connections: 32 }),
    config.dispatcher,
  );
  client.warm();
  const base = config.baseUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  // Twilio takes a Messaging Service under its own parameter name instead of From.
  const senderField = MESSAGING_SERVICE_SID.test(config.from) ? 'MessagingServiceSid' : 'From';

  return {
    name: 'twilio',
    async send(message, signal) {
      const form = new URLSearchParams({ To: message.to, [senderField]: config.from, Body: message.body });
      try {
        const { request, dispatcher } = await client.get();
        const response = await request(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          signal,
          dispatcher,
        });
        return await outcomeOf(response, signal);
      } catch (err) {
        return { ok: false, kind: classifyThrown(err, signal), detail: describeError(err) };
      }
    },
    close: () => client.close(),
  };
}

/** Reads (or drains) the body so the connection goes back to the pool, and classifies the status. */
async function outcomeOf(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<ProviderResult<void>> {
  const status = response.statusCode;
  if (status >= 200 && status < 300) {
    await response.body.dump({ limit: MAX_ERROR_BODY_BYTES, signal });
    return { ok: true, value: undefined };
  }
  if (status >= 400 && status < 500) {
    const text = await readBoundedText(response.body, MAX_ERROR_BODY_BYTES);
    return { ok: false, kind: 'rejected', detail: `HTTP ${status}${twilioCode(text)}` };
  }
  await response.body.dump({ limit: MAX_ERROR_BODY_BYTES, signal });
  return { ok: false, kind: 'error', detail: `HTTP ${status}` };
}

/**
 * Twilio's numeric error code (21211 invalid number, 21610 opted out…) tells operators what went
 * wrong without quoting the message, which can contain the phone number.
 */
function twilioCode(text: string | null): string {
  if (!text) return '';
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'number' ? `, Twilio ${code}` : '';
  } catch {
    return '';
  }
}
