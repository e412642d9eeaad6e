/**
 * Setup file of the e2e project, run before each e2e file: waits for the global set-up's gateways (the
 * set-up returns before they are up, so the server and unit files start meanwhile: global-setup.ts) and
 * puts what it answers into the file's context, so `inject('baseUrls')`, `inject('signedIn')` and
 * `inject('consoleUrl')` answer as if the set-up had provided them; and `inject('baseUrl')` answers this
 * worker slot's gateway, like gatewayUrl() in session.ts, so a file written before the gateways were per
 * slot never shares its gateway with a file running at the same time.
 */
import { inject } from 'vitest';
import type { GatewaysReady } from './global-setup';
import { gatewayUrl } from './session';

interface WorkerState {
  providedContext: Record<string, unknown>;
}

const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
if (state && !state.providedContext.baseUrls) {
  const res = await fetch(inject('setupUrl'));
  if (!res.ok) throw new Error(`the e2e set-up failed (tests/e2e/global-setup.ts):\n${await res.text()}`);
  state.providedContext = { ...state.providedContext, ...((await res.json()) as GatewaysReady) };
}
if (state && inject('baseUrl') !== gatewayUrl()) state.providedContext = { ...state.providedContext, baseUrl: gatewayUrl() };
