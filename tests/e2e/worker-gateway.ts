/**
 * Setup file of the e2e project: `inject('baseUrl')` answers this worker slot's gateway, like
 * gatewayUrl() in session.ts, so a file written before the gateways were per slot never shares its
 * gateway with a file running at the same time.
 */
import { inject } from 'vitest';
import { gatewayUrl } from './session';

interface WorkerState {
  providedContext: Record<string, unknown>;
}

const state = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__;
if (state && inject('baseUrl') !== gatewayUrl()) state.providedContext = { ...state.providedContext, baseUrl: gatewayUrl() };
