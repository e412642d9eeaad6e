// `npm test`: the type check and the test run side by side, then one exit status for both.
//
// tsc (TypeScript 7, the native compiler: about 9 core-seconds; 5.9 took 31) used to run before vitest,
// while vitest's own start (the e2e global setup builds the console and starts the gateways) leaves the
// other core partly idle; side by side they finish sooner. tsc's errors are printed after vitest's
// report, so they are not lost in it.
// Arguments go to vitest (`npm test -- tests/unit/stores.test.ts`).
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

function run(cmd, args, capture) {
  return new Promise((resolve) => {
    const child = spawn(bin(cmd), args, { stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (capture) for (const s of [child.stdout, child.stderr]) s.on('data', (c) => (out += c));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

// The generated files' check (about 2 s) runs beside them too; stale files fail the run at its end, with
// the list of them, instead of delaying every run that is up to date.
const [codegen, types, tests] = await Promise.all([
  run('tsx', ['scripts/codegen.ts', '--check'], true),
  run('tsc', ['--noEmit', '-p', 'tsconfig.json'], true),
  run('vitest', ['run', ...process.argv.slice(2)], false),
]);
if (types.code !== 0) {
  process.stdout.write(`\ntsc --noEmit found type errors:\n${types.out}\n`);
} else {
  process.stdout.write('tsc --noEmit: no type errors\n');
}
if (codegen.code !== 0) process.stdout.write(`\nnpm run codegen -- --check failed:\n${codegen.out}\n`);
process.exit(codegen.code || types.code || tests.code);
