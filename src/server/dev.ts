import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { DEMO_PASSWORD, DEMO_PHONE } from './seed.ts';

/**
 * Development: the gateway (demo data) on :8080 under `tsx watch`, plus the Vite dev server (which
 * proxies /api to it). Editing a schema under schemas/ reloads both sides: Vite reloads the console
 * (the browser registry imports schemas/** through import.meta.glob) and the gateway starts again in its
 * own process (schema-reload.ts), validating the schemas and migrating new columns and indexes before it
 * answers. A code edit restarts the gateway's process (tsx watch); content/ is read at each request.
 */
const env = process.env;
const host = env.HOST || '127.0.0.1';
const port = env.PORT || '8080';
const gatewayUrl = `http://${host}:${port}`;
const bin = (name: string) => resolve('node_modules/.bin', name);

const gateway = spawn(
  bin('tsx'),
  ['watch', '--clear-screen=false', 'src/server/main.ts', '--demo', '--studio'],
  { stdio: 'inherit', env: { ...env, PORT: port, HOST: host, DATA_DIR: env.DATA_DIR || '.data/pglite' } },
);

const vite = spawn(bin('vite'), ['--host', host], { stdio: ['inherit', 'pipe', 'inherit'], env: { ...env, GATEWAY_URL: gatewayUrl } });
let announced = false;
vite.stdout!.on('data', (chunk: Buffer) => {
  const text = chunk.toString();
  process.stdout.write(text);
  const m = /(http:\/\/[^\s]+)/.exec(text.replace(/\x1b\[[0-9;]*m/g, ''));
  if (!announced && m) {
    announced = true;
    console.log(`\nConsole (dev) ready at ${m[1]} (gateway ${gatewayUrl}/api/)`);
    console.log(`Demo sign-in: phone ${DEMO_PHONE}, password ${DEMO_PASSWORD}`);
    console.log('Edits under schemas/ reload the console and the gateway.\n');
  }
});

let stopping = false;
const children: ChildProcess[] = [gateway, vite];
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  // A child still running after 12 s is killed, so stopping leaves no process behind: once, a studio
  // test's `tsx watch` (with no gateway under it) was found still running 40 minutes after its run.
  setTimeout(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    process.exit(0);
  }, 12000).unref();
};
for (const c of children) {
  c.on('exit', (code) => {
    if (!stopping) console.error(`${c === vite ? 'vite' : 'gateway'} exited with code ${code}`);
    stop();
    if (children.every((x) => x.exitCode !== null || x.signalCode !== null)) process.exit(code ?? 0);
  });
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
