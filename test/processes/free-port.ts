/**
 * A TCP port on 127.0.0.1 for a process a test starts, free at the time of the call.
 *
 * The port is drawn below the kernel's ephemeral range (`net.ipv4.ip_local_port_range`), never from it:
 * between this call and the child's own `listen` the port is unbound, and a port of the ephemeral range
 * can meanwhile be handed to any `listen(0)` or outgoing connection of the tests running beside it
 * (which made a started service fail with EADDRINUSE). Below the range only another explicit choice can
 * take it.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const lowest = 10_000;

/** The first port of the ephemeral range (32768 when it cannot be read). */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > lowest + 1000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

const below = ephemeralStart();

/** Whether nothing listens on `port` of 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = lowest + Math.floor(Math.random() * (below - lowest));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${lowest} and ${below}`);
}
