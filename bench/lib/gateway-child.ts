/**
 * The gateway under test in its own process (as in production: one gateway process per core), so the
 * load generator's own work never runs on the gateway's event loop and inflates its latencies.
 * Options come as JSON in BENCH_GATEWAY_OPTIONS; prints one line `{"port":N}` when it listens and
 * closes gracefully on SIGTERM or when the bench process goes away (its stdin pipe ends).
 */
import type { StartServerOptions } from '../../src/server/server.ts';

// BENCH_GATEWAY_SERVER: another checkout's server module (bench/firstpage-compare.ts runs an older console).
const { startServer } = (await import(process.env.BENCH_GATEWAY_SERVER ?? '../../src/server/server.ts')) as typeof import('../../src/server/server.ts');
const options = JSON.parse(process.env.BENCH_GATEWAY_OPTIONS ?? '{}') as StartServerOptions;
const server = await startServer(options);
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
const stop = () =>
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on('SIGTERM', stop);
// stdin is a pipe from the bench: it ends when the bench process dies, whatever the way.
process.stdin.on('end', stop);
process.stdin.resume();
