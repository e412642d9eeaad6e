/** Public surface of the gateway's file library (see each module for details). */
export * from './types.ts';
export * from './storage.ts';
export * from './checks.ts';
export { decodeText } from './text-decode.ts';
export * from './roster-read.ts';
export * from './roster-map.ts';
export * from './roster-validate.ts';
export * from './roster-columns.ts';
export * from './workbooks.ts';
export * from './roster-schema.ts';
export { parseRosterInWorker, setMaxParallelParses, type ParseRosterOptions, type ParseTask, type ValidatorModuleRef } from './parse-in-worker.ts';
