/**
 * Real listeners on port 0 standing in for the SMS and e-mail providers: a fake Twilio Messages API
 * (node:http) and an SMTP sink (smtp-server). They accept every message and keep what they got.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export const twilioCredentials = { SID: 'AC0123456789abcdef0123456789abcdef', TOKEN: 'twilio-test-auth-token-7f3a', FROM: '+15005550006' };

/** The settings that send SMS through Twilio at `url`. */
export const twilioEnv = (url: string) => ({
  SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: twilioCredentials.SID, TWILIO_AUTH_TOKEN: twilioCredentials.TOKEN,
  TWILIO_FROM: twilioCredentials.FROM, TWILIO_BASE_URL: url,
});

/** A stand-in for api.twilio.com that accepts every message; `received` holds each form posted. */
export async function fakeTwilio() {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      received.push(new URLSearchParams(raw));
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid: `SM${received.length}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A real SMTP server keeping the envelope recipients and raw text of each delivery. */
export async function smtpSink() {
  const deliveries: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 500,
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        deliveries.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
