/**
 * The bare reference as a process of its own (bench/reads-wrk.ts), so it can be pinned to a core
 * like the service: `node bench/bare-process.ts answers.json` serves the recorded answers
 * (bare-server.ts) on a free loopback port and prints `listening <base>`. Node runs it as it is
 * (its types stripped), without tsx: under `--import tsx` the same route costs about 4 µs more a
 * request (source maps on, and Node's `process.nextTick` several times slower).
 */
import { readFileSync } from 'node:fs';
import { startBareServer, type RecordedAnswer } from './bare-server.ts';

type Stored = Omit<RecordedAnswer, 'body'> & { body: string };
const stored = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Stored[];
const { base } = await startBareServer(stored.map((a) => ({ ...a, body: Buffer.from(a.body, 'base64') })));
console.log(`listening ${base}`);
process.on('SIGTERM', () => process.exit(0));
