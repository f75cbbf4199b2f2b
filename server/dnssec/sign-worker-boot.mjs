// The signing worker's entry (server/dnssec/sign-in-worker.ts starts it). Plain JavaScript, because a worker thread
// does not inherit the service's TypeScript loader (`node --import tsx` registers it with module.register(), which
// reaches the main thread only): this registers tsx in the worker, then loads the TypeScript worker module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
