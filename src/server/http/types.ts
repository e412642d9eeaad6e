import type { Db } from '../db.ts';
import type { SmsProvider } from '../services/sms.ts';
import type { FileStorage } from '../files/storage.ts';
import type { RequestBusiness } from '../entity/hooks.ts';
import type { LoadedEntities } from '../entity/load.ts';

export type AuthMode = 'none' | 'user' | 'business';

export interface User {
  id: number;
  phone: string;
  family: string;
}

/** The business a request acts for: the entity layer's RequestBusiness (one definition). */
export type Business = RequestBusiness;

/** Sign-in and API limits; tests may lower or raise them through startServer({ limits }). */
export interface Limits {
  /** General API limit per IP per minute. */
  apiPerMinute: number;
  /** Sign-in attempts (right or wrong) per source address per 15 minutes: a flood guard. */
  loginPerIp: number;
  /** Wrong passwords per source address (any accounts) per 15 minutes. */
  loginFailuresPerIp: number;
  /** Wrong passwords for one account from one address before its backoff starts (services/login-limits.ts). */
  loginFailures: number;
  /** Wrong passwords for one account from all addresses before the account-wide backoff starts. */
  accountFailures: number;
  /** Longest backoff wait. */
  lockMs: number;
  /** SMS codes per phone per minute / per day; per IP per hour. */
  smsPerPhoneMinute: number;
  smsPerPhoneDay: number;
  smsPerIpHour: number;
  /** Code lifetime and wrong tries before the code is dead. */
  smsTtlMs: number;
  smsAttempts: number;
  /** A code request is answered this long after it arrived, whether the phone has an account or not. */
  smsAnswerMs: number;
}

export const DEFAULT_LIMITS: Limits = {
  apiPerMinute: 600,
  loginPerIp: 300,
  loginFailuresPerIp: 30,
  loginFailures: 5,
  accountFailures: 50,
  lockMs: 15 * 60_000,
  smsPerPhoneMinute: 1,
  smsPerPhoneDay: 10,
  smsPerIpHour: 20,
  smsTtlMs: 5 * 60_000,
  smsAttempts: 5,
  smsAnswerMs: 300,
};

/** Test-only seams; never set in production. */
export interface TestHooks {
  /** Awaited before every route handler (after auth and validation). */
  beforeHandler?: (method: string, url: string) => Promise<void>;
}

/** What route plugins need, decorated on the Fastify instance as `app.deps`. */
export interface AppDeps {
  db: Db;
  /** The entity and page schemas this gateway runs on (read once at start). */
  entities: LoadedEntities;
  basePath: string;
  limits: Limits;
  /** null when no SMS provider may be used (production without a real provider). */
  sms: SmsProvider | null;
  /** True once shutdown began (readiness turns 503). */
  shuttingDown: boolean;
  /** Where uploaded and generated files are kept (shared by every gateway: see files/storage-config.ts). */
  files: FileStorage;
  /** Work that outlives its request (e.g. sending an SMS); awaited when the gateway closes. */
  background: Set<Promise<unknown>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    /** Set for routes with config.auth 'user' or 'business'. */
    user: User;
    /** Set for routes with config.auth 'business' (X-Company-Id the user belongs to). */
    business: Business;
    cspNonce: string;
  }
  interface FastifyContextConfig {
    /** Who may call the route; defaults to 'business' inside the API scope. */
    auth?: AuthMode;
  }
}
