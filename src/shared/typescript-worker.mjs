// The entry of a worker thread whose module is TypeScript (the service run from its sources: tests,
// the CLI, the bench): registers tsx in this thread, which does not inherit the loader hooks of the
// thread that started it, then imports the module named by its URL in argv. Bundled, a worker
// module is JavaScript and starts without it (src/shared/worker-threads.ts).
import { argv } from 'node:process';
import { register } from 'tsx/esm/api';

register();
await import(argv[2]);
