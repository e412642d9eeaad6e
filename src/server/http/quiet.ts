/**
 * When the gateway last had work: the tasks that run only while nobody waits (idle-gc.ts, the embedded
 * database's upkeep in embedded-upkeep.ts) share one count of the requests in flight. Per process, like
 * those tasks: nothing here is shared between gateways.
 */
import type { FastifyInstance } from 'fastify';

export interface Quiet {
  /** Milliseconds since the last request was answered; 0 while one is in flight. */
  quietMs(): number;
  /** When a request last began or ended (Date.now()). */
  lastActive(): number;
}

const trackers = new WeakMap<FastifyInstance, Quiet>();

/** The app's tracker, its hooks added on first use (call from a plugin wrapped in fastify-plugin: the root app). */
export function quietOf(app: FastifyInstance): Quiet {
  const known = trackers.get(app);
  if (known) return known;
  // Requests begun and not yet answered (an aborted request may see both onRequestAbort and onResponse).
  const open = new Set<object>();
  let last = Date.now();
  const done = (req: object) => {
    open.delete(req);
    last = Date.now();
  };
  app.addHook('onRequest', async (req) => {
    open.add(req);
    last = Date.now();
  });
  app.addHook('onResponse', async (req) => done(req));
  app.addHook('onRequestAbort', async (req) => done(req));
  const quiet: Quiet = { quietMs: () => (open.size > 0 ? 0 : Date.now() - last), lastActive: () => last };
  trackers.set(app, quiet);
  return quiet;
}

/** A quiet time in seconds from the variable `name`: unset keeps the task's default ({}), 0 turns the task off (false). */
export function quietTimeFromEnv(env: NodeJS.ProcessEnv, name: string): { idleMs?: number } | false {
  const raw = env[name];
  if (raw === undefined || raw === '') return {};
  const s = Number(raw);
  if (!Number.isFinite(s) || s < 0) throw new Error(`${name} must be a number of seconds ≥ 0, not "${raw}"`);
  return s === 0 ? false : { idleMs: s * 1000 };
}
