import type { Db } from '../db.ts';
import type { SmsProvider } from '../services/sms.ts';
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
  /** Sign-in attempts per IP per 15 minutes. */
  loginPerIp: number;
  /** Wrong passwords before the account is locked. */
  loginFailures: number;
  /** Lock duration after too many wrong passwords. */
  lockMs: number;
  /** SMS codes per phone per minute / per day; per IP per hour. */
  smsPerPhoneMinute: number;
  smsPerPhoneDay: number;
  smsPerIpHour: number;
  /** Code lifetime and wrong tries before the code is dead. */
  smsTtlMs: number;
  smsAttempts: number;
}

export const DEFAULT_LIMITS: Limits = {
  apiPerMinute: 600,
  loginPerIp: 100,
  loginFailures: 5,
  lockMs: 15 * 60_000,
  smsPerPhoneMinute: 1,
  smsPerPhoneDay: 10,
  smsPerIpHour: 20,
  smsTtlMs: 5 * 60_000,
  smsAttempts: 5,
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
