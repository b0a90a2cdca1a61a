/**
 * The provider doubles of every test: real listeners on 127.0.0.1 standing in for Twilio's Messages
 * API, an SMTP server and a bureau gateway (docs/bureau-http-contract.md). Each answers as its
 * `mode` says, switched at any time: `ok`, `fail` (the provider refuses: HTTP 500, SMTP 550 to the
 * recipient), `hang` (never answers; SMTP: never greets), `slow` (answers within the time limit,
 * late), `garbage` (bytes that are not the protocol, or a 200 that is not a report), or a reply code
 * (Twilio: the HTTP status of an error body; SMTP: the reply to DATA). Each keeps what reached it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type Mode = 'ok' | 'fail' | 'hang' | 'slow' | 'garbage';
export const slowMs = 150;

type Listener = { listen: (port: number, host: string, cb: () => void) => unknown };

function listen(server: Listener, address: () => AddressInfo) {
  return new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve(address().port)));
}

async function closeHttp(server: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const twilioCredentials = {
  SID: 'AC0123456789abcdef0123456789abcdef',
  TOKEN: 'twilio-test-auth-token-7f3a',
  FROM: '+15005550006',
};

/** The settings that send SMS through Twilio at `url`. */
export const twilioEnv = (url: string) => ({
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: twilioCredentials.SID,
  TWILIO_AUTH_TOKEN: twilioCredentials.TOKEN,
  TWILIO_FROM: twilioCredentials.FROM,
  TWILIO_BASE_URL: url,
});

export interface TwilioRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

/**
 * A stand-in for api.twilio.com: `received` holds every request that reached it, whatever the mode;
 * `delivered` the bodies it accepted, by `To`.
 */
export async function twilioDouble(mode: Mode | number = 'ok') {
  const state = { mode, received: [] as TwilioRequest[], delivered: new Map<string, string[]>() };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', async () => {
      const form = new URLSearchParams(raw);
      state.received.push({ method: req.method, url: req.url, headers: req.headers, form });
      const mode = state.mode;
      if (mode === 'hang') return;
      if (mode === 'garbage') return void res.socket?.end('NOT HTTP AT ALL\r\n\r\n');
      if (mode === 'fail' || typeof mode === 'number') {
        const status = mode === 'fail' ? 500 : mode;
        res.writeHead(status, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ code: 21211, message: 'refused', status }));
      }
      if (mode === 'slow') await sleep(slowMs);
      const to = form.get('To')!;
      state.delivered.set(to, [...(state.delivered.get(to) ?? []), form.get('Body')!]);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid: `SM${state.received.length}`, status: 'queued' }));
    });
  });
  const port = await listen(server, () => server.address() as AddressInfo);
  return Object.assign(state, { url: `http://127.0.0.1:${port}`, close: () => closeHttp(server) });
}
export type TwilioDouble = Awaited<ReturnType<typeof twilioDouble>>;

export interface SmtpDelivery {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server (smtp-server) behind a switch: `deliveries` holds each accepted message with its
 * envelope, `delivered` the raw messages by recipient, `sessions()` the SMTP sessions opened.
 * The mode applies to every exchange, also on a connection the client keeps from before the switch.
 */
export async function smtpDouble(mode: Mode | number = 'ok') {
  const state = { mode, deliveries: [] as SmtpDelivery[], delivered: new Map<string, string[]>() };
  let sessions = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    // The server's self-signed certificate would fail verification; production servers have real ones.
    disabledCommands: ['STARTTLS'],
    closeTimeout: 200,
    logger: false,
    onConnect(_session, cb) {
      sessions++;
      cb();
    },
    onRcptTo(address, _session, cb) {
      if (state.mode === 'fail')
        return cb(Object.assign(new Error(`<${address.address}> unknown`), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mode = state.mode;
        if (typeof mode === 'number')
          return cb(Object.assign(new Error('refused by the double'), { responseCode: mode }));
        const deliver = () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const { mailFrom, rcptTo } = session.envelope;
          state.deliveries.push({ from: mailFrom ? mailFrom.address : '', to: rcptTo.map((r) => r.address), raw });
          for (const { address: to } of rcptTo) state.delivered.set(to, [...(state.delivered.get(to) ?? []), raw]);
          cb();
        };
        if (mode === 'slow') setTimeout(deliver, slowMs);
        else deliver();
      });
    },
  });
  const smtpPort = await listen(smtp, () => smtp.server.address() as AddressInfo);
  const sockets = new Set<Socket>();
  const front = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (state.mode === 'hang') return;
    if (state.mode === 'garbage') return void socket.end('HELLO? THIS IS NOT SMTP\r\n');
    const back = connect(smtpPort, '127.0.0.1');
    sockets.add(back);
    back.on('close', () => (sockets.delete(back), socket.destroy()));
    back.on('error', () => socket.destroy());
    socket.on('close', () => back.destroy());
    back.on('data', (chunk) => socket.write(chunk));
    socket.on('data', (chunk) => {
      if (state.mode === 'hang') return;
      if (state.mode === 'garbage') return void socket.end('HELLO? THIS IS NOT SMTP\r\n');
      back.write(chunk);
    });
  });
  const port = await listen(front, () => front.address() as AddressInfo);
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    sessions: () => sessions,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  });
}
export type SmtpDouble = Awaited<ReturnType<typeof smtpDouble>>;

export const validReport = {
  provider: 'buro',
  folio: 'F-000123',
  queriedAt: '2026-01-15T12:00:00.000Z',
  recordFound: true,
  score: 712,
  accounts: [
    {
      type: 'CREDIT_CARD',
      lender: 'Banco Uno',
      openedAt: '2019-04-01',
      creditLimit: 50000,
      balance: 12000,
      monthlyPayment: 1500,
      worstDelinquencyDays: 0,
      worstDelinquencyDate: null,
    },
  ],
  inquiries: [],
};

/** A gateway following docs/bureau-http-contract.md: the number of reports it answered. */
export async function bureauDouble(mode: Mode = 'ok') {
  const state = { mode, answered: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const mode = state.mode;
      if (mode === 'hang') return;
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return void res.end('{"error":"down"}');
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"provider": "buro", "score": "not a report"');
      }
      if (mode === 'slow') await sleep(slowMs);
      state.answered++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(validReport));
    });
  });
  const port = await listen(server, () => server.address() as AddressInfo);
  return Object.assign(state, { url: `http://127.0.0.1:${port}`, close: () => closeHttp(server) });
}
