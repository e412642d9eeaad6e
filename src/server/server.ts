import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, normalizeBasePath } from './app.ts';
import { openDb, type Db } from './db.ts';
import { migrate } from './migrate.ts';
import { seed } from './seed.ts';

export interface StartServerOptions {
  /** TCP port; 0 picks a free ephemeral port. Default 8080. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** PGlite data dir ('memory' for in-memory). Ignored when databaseUrl is set. Default .data/pglite. */
  dataDir?: string;
  /** Real PostgreSQL connection string; when set, PostgreSQL is used instead of PGlite. */
  databaseUrl?: string;
  /** URL prefix of the console, e.g. '/console/'. Default '/'. */
  basePath?: string;
  /** Built UI directory to serve (index.html + assets/). No static serving when omitted. */
  staticDir?: string;
  /** Use an already opened database instead of opening one (it is not closed by close()). */
  db?: Db;
  /** Seed demo data when the database is empty. Default true. */
  seed?: boolean;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:54321/ (always ends with the base path). */
  url: string;
  port: number;
  basePath: string;
  db: Db;
  server: Server;
  close(): Promise<void>;
}

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const basePath = normalizeBasePath(opts.basePath);
  const ownDb = !opts.db;
  const db = opts.db ?? (await openDb({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir }));
  try {
    await migrate(db);
    if (opts.seed !== false) await seed(db);
  } catch (err) {
    if (ownDb) await db.close().catch(() => undefined);
    throw err;
  }
  const server = createServer(createApp({ db, staticDir: opts.staticDir, basePath }));
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}${basePath}`,
    port,
    basePath,
    db,
    server,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (ownDb) await db.close();
      })();
      return closing;
    },
  };
}
