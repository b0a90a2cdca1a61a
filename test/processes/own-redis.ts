/**
 * A `redis-server` (on PATH) of its own on a free port, without persistence, that can be stopped and
 * started again. Starting it forks this process, which holds up this process's event loop for the
 * time the kernel takes to copy its page tables (tens of milliseconds for a large process):
 * `prepareStart()` forks, ahead of time, a shell that waits for a line on its stdin and then becomes
 * the server, so a `start()` while a bench measures costs this process one write. (Should this
 * process exit first, the shell reads the end of its stdin and exits.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port.ts';

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startOwnRedis() {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  let child: ChildProcess | undefined;
  let prepared: ChildProcess | undefined;
  const redis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    prepareStart() {
      prepared ??= spawn('sh', ['-c', 'read go && exec redis-server "$@"', 'sh', ...args], {
        stdio: ['pipe', 'ignore', 'ignore'],
      });
    },
    async start() {
      if (prepared) {
        child = prepared;
        prepared = undefined;
        child.stdin!.end('go\n');
      } else child = spawn('redis-server', args, { stdio: 'ignore' });
      const deadline = Date.now() + 10_000;
      while (!(await accepts(port))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for redis-server on ${port}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = undefined;
    },
  };
  await redis.start();
  return redis;
}
export type OwnRedis = Awaited<ReturnType<typeof startOwnRedis>>;
