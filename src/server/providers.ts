/**
 * Which database, SMS provider, payment provider and file storage a gateway uses, chosen from its
 * options and environment, and said in one line each at start-up (main.ts prints them).
 * Development providers only outside production (environment.ts).
 */
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Db } from './db.ts';
import { DevPaymentProvider, type PaymentProvider } from './domain/payment.ts';
import { chooseFileStorage, type FileStorageChoice } from './files/storage-config.ts';
import { devSmsProvider, smsProviderFromEnv, type SmsLogger, type SmsProvider } from './services/sms.ts';
import { sha256 } from './util.ts';

export interface ProviderOptions {
  db: Db;
  production: boolean;
  dataDir?: string;
  databaseUrl?: string;
  sms?: SmsProvider;
  payments?: PaymentProvider | null;
  operatorToken?: string;
}

export interface Providers {
  sms: SmsProvider | null;
  payments: PaymentProvider | null;
  files: FileStorageChoice;
  operatorTokenHash?: string;
  lines: string[];
  /** Gives the development SMS provider the gateway's logger. */
  attachLog(app: FastifyInstance): void;
}

/** The shortest operator credential accepted (it guards onboarding: business and user creation). */
export const MIN_OPERATOR_TOKEN = 32;

export const isMemory = (dataDir?: string) => dataDir === 'memory' || Boolean(dataDir?.startsWith('memory://'));

/** "PostgreSQL host:port/db" or "embedded (PGlite) <dir>" — never the password. */
export function describeDatabase(db: Db, opts: { dataDir?: string; databaseUrl?: string }): string {
  if (db.driver === 'postgres') {
    if (!opts.databaseUrl) return 'PostgreSQL';
    const u = new URL(opts.databaseUrl);
    return `PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  }
  const dir = opts.dataDir ?? '.data/pglite';
  return isMemory(dir) ? 'embedded (PGlite) in memory: nothing is kept after the gateway stops' : `embedded (PGlite) ${resolve(dir)}`;
}

/** Where the development SMS provider appends codes: next to the embedded database; none when nothing may touch the disk. */
function smsLogFile(opts: ProviderOptions): string | null {
  if (opts.db.driver === 'pglite' && isMemory(opts.dataDir)) return null;
  const envDir = process.env.DATA_DIR;
  if (envDir && !isMemory(envDir)) return join(resolve(envDir), 'sms-dev.log');
  return join(opts.dataDir && !isMemory(opts.dataDir) ? resolve(opts.dataDir, '..') : resolve('.data'), 'sms-dev.log');
}

export function pickProviders(opts: ProviderOptions): Providers {
  const logRef: { log?: SmsLogger } = {};
  const logger: SmsLogger = { info: (obj, msg) => logRef.log?.info(obj, msg) };
  let sms: SmsProvider | null = opts.sms ?? smsProviderFromEnv() ?? (opts.production ? null : devSmsProvider(smsLogFile(opts), logger));
  // A development provider would print codes instead of sending them: never in production.
  if (opts.production && sms?.development) sms = null;
  const payments = opts.payments !== undefined ? opts.payments : opts.production ? null : new DevPaymentProvider();
  const files = chooseFileStorage({ db: opts.db, postgres: opts.db.driver === 'postgres', memory: opts.db.driver === 'pglite' && isMemory(opts.dataDir) });
  const token = opts.operatorToken ?? process.env.OPERATOR_TOKEN;
  if (token !== undefined && token !== '' && token.length < MIN_OPERATOR_TOKEN) {
    throw new Error(`OPERATOR_TOKEN must be at least ${MIN_OPERATOR_TOKEN} characters (e.g. openssl rand -hex 32)`);
  }
  const lines = [
    `SMS: ${sms ? sms.description ?? 'custom provider' : 'none (set SMS_HTTP_URL; requesting a code answers 503)'}`,
    `payments: ${payments ? (payments instanceof DevPaymentProvider ? 'development (every payment succeeds, no money moves)' : 'custom provider') : 'none (online payment answers 503; prepaid balances work)'}`,
    `files: ${files.description}`,
    `operator API: ${token ? 'on (OPERATOR_TOKEN)' : 'off (set OPERATOR_TOKEN)'}`,
    `environment: ${opts.production ? 'production' : 'development'}`,
  ];
  return {
    sms,
    payments,
    files,
    operatorTokenHash: token ? sha256(token) : undefined,
    lines,
    attachLog(app) {
      logRef.log = app.log;
    },
  };
}
