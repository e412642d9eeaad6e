// Worker-thread bootstrap. On Node 20, module hooks given through Worker `execArgv`
// (['--import', 'tsx']) are not applied to the worker's entry (nodejs/node#47747, fixed in
// Node 22.2), so the worker registers tsx itself and then imports the TypeScript entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
