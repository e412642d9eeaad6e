/**
 * A small deployment for tests: gateway processes started as `npm run serve` starts them
 * (node --import tsx src/server/main.ts) and nginx from Debian in front of them, round-robin.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export function nginxBinary(): string | null {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (spawnSync(p, ['-v']).status === 0) return p;
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

export interface Gateway {
  proc: ChildProcess;
  port: number;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node --import tsx src/server/main.ts` with env and waits for "Console ready at". */
export async function startGateway(env: Record<string, string>, timeoutMs = 240_000): Promise<Gateway> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`gateway did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      if (out.includes('Console ready at')) {
        clearTimeout(timer);
        res();
      }
    };
    proc.stdout!.on('data', check);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`gateway exited with ${code}:\n${out}`));
    });
  });
  return {
    proc,
    port,
    output: () => out,
    stop: () =>
      new Promise<void>((res) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return res();
        proc.once('exit', () => res());
        proc.kill('SIGTERM');
      }),
  };
}

export interface Proxy {
  port: number;
  stop(): Promise<void>;
}

/**
 * nginx on a free port in front of the given gateway ports (round-robin). Each answer says which
 * gateway served it (X-Upstream), and a gateway that stops answering is skipped for idempotent requests.
 */
export async function startNginx(bin: string, dir: string, upstreams: number[]): Promise<Proxy> {
  const port = await freePort();
  chmodSync(dir, 0o755); // nginx's workers (user nobody under root) write request bodies below it
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'logs']) {
    mkdirSync(join(dir, d), { recursive: true });
    chmodSync(join(dir, d), 0o777);
  }
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream gateways {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=60s;`).join('\n')}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 20m;
    location / {
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`,
  );
  const test = spawnSync(bin, ['-t', '-c', conf, '-p', dir], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused its configuration:\n${test.stderr}`);
  const proc = spawn(bin, ['-c', conf, '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}:\n${err}`);
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    stop: () =>
      new Promise<void>((res) => {
        if (proc.exitCode !== null) return res();
        proc.once('exit', () => res());
        proc.kill('SIGQUIT');
      }),
  };
}
