// Starts a TypeScript worker thread: registers tsx in this thread, then loads the module named in
// workerData.module (worker threads do not inherit the loader hooks of the main thread).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
