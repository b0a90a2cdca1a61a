/**
 * Provider doubles for the fault tests, real listeners on port 0 whose behaviour a test switches:
 * `ok`, `fail` (the provider refuses: HTTP 500, SMTP 550), `hang` (never answers), `slow` (answers
 * within the time limit, late), `garbage` (bytes that are not the protocol, or a 200 that is not a
 * report). Each keeps what it delivered, by recipient.
 */
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type Mode = 'ok' | 'fail' | 'hang' | 'slow' | 'garbage';
export const slowMs = 150;

function listen(
  server: { listen: (port: number, host: string, cb: () => void) => unknown },
  address: () => AddressInfo,
) {
  return new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve(address().port)));
}

async function closeHttp(server: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A stand-in for api.twilio.com: delivered SMS bodies by `To`. */
export async function twilioDouble() {
  const state = { mode: 'ok' as Mode, delivered: new Map<string, string[]>() };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', async () => {
      const mode = state.mode;
      if (mode === 'hang') return;
      if (mode === 'garbage') return void res.socket?.end('NOT HTTP AT ALL\r\n\r\n');
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return void res.end('{"status":500}');
      }
      if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, slowMs));
      const form = new URLSearchParams(raw);
      const to = form.get('To')!;
      state.delivered.set(to, [...(state.delivered.get(to) ?? []), form.get('Body')!]);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"sid":"SM1","status":"queued"}');
    });
  });
  const port = await listen(server, () => server.address() as AddressInfo);
  return Object.assign(state, { url: `http://127.0.0.1:${port}`, close: () => closeHttp(server) });
}

/** A real SMTP server behind a switch: `hang` accepts and never greets, `garbage` greets in nonsense. */
export async function smtpDouble() {
  const state = { mode: 'ok' as Mode, delivered: new Map<string, string[]>() };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    closeTimeout: 200,
    logger: false,
    onRcptTo(address, _session, cb) {
      if (state.mode === 'fail') return cb(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const deliver = () => {
          for (const rcpt of session.envelope.rcptTo) {
            state.delivered.set(rcpt.address, [...(state.delivered.get(rcpt.address) ?? []), Buffer.concat(chunks).toString('utf8')]);
          }
          cb();
        };
        if (state.mode === 'slow') setTimeout(deliver, slowMs);
        else deliver();
      });
    },
  });
  const smtpPort = await listen(smtp, () => smtp.server.address() as AddressInfo);
  const sockets = new Set<Socket>();
  // The mode applies to every exchange, also on a connection the client keeps from before the switch.
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
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  });
}

export const validReport = {
  provider: 'buro', folio: 'F-000123', queriedAt: '2026-01-15T12:00:00.000Z', recordFound: true, score: 712,
  accounts: [{
    type: 'CREDIT_CARD', lender: 'Banco Uno', openedAt: '2019-04-01', creditLimit: 50000, balance: 12000,
    monthlyPayment: 1500, worstDelinquencyDays: 0, worstDelinquencyDate: null,
  }],
  inquiries: [],
};

/** A gateway following docs/bureau-http-contract.md: the number of reports it answered. */
export async function bureauDouble() {
  const state = { mode: 'ok' as Mode, answered: 0 };
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
      if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, slowMs));
      state.answered++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(validReport));
    });
  });
  const port = await listen(server, () => server.address() as AddressInfo);
  return Object.assign(state, { url: `http://127.0.0.1:${port}`, close: () => closeHttp(server) });
}
