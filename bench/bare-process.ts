/**
 * The bare reference as a process of its own (bench/reads-wrk.ts), so it can be pinned to a core
 * like the service: `node --import tsx bench/bare-process.ts answers.json` serves the recorded
 * answers (bare-server.ts) on a free loopback port and prints `listening <base>`.
 */
import { readFileSync } from 'node:fs';
import { startBareServer, type RecordedAnswer } from './bare-server.ts';

type Stored = Omit<RecordedAnswer, 'body'> & { body: string };
const stored = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Stored[];
const { base } = await startBareServer(stored.map((a) => ({ ...a, body: Buffer.from(a.body, 'base64') })));
console.log(`listening ${base}`);
process.on('SIGTERM', () => process.exit(0));
