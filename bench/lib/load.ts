/**
 * A bounded closed-loop load generator: `concurrency` workers each take the next request from a
 * generator, await it, record its latency and go again, until `count` requests were issued or
 * `durationMs` elapsed (whichever comes first). In-flight requests are aborted after
 * `requestTimeoutMs`. Uses the global fetch (undici), which keeps connections alive.
 */
import { performance } from 'node:perf_hooks';

export interface LoadRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  concurrency: number;
  /** Maximum requests to issue in total. */
  count: number;
  /** Stop issuing new requests after this long. */
  durationMs: number;
  requestTimeoutMs?: number;
  /** Produces request number i (0-based). */
  next: (i: number) => LoadRequest;
  /** Optional check of each JSON body; a thrown error counts as a failed request. */
  check?: (body: unknown, status: number) => void;
  /** Stop early when this resolves/flag becomes true (e.g. a concurrent write finished). */
  stop?: () => boolean;
}

export interface LoadResult {
  latencies: number[];
  errors: number;
  firstError?: string;
  issued: number;
  elapsedMs: number;
  /** True when the duration cap (not the count) ended the run. */
  timedOut: boolean;
  lastBody?: unknown;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const deadline = started + o.durationMs;
  const timeout = o.requestTimeoutMs ?? 30_000;
  const res: LoadResult = { latencies: [], errors: 0, issued: 0, elapsedMs: 0, timedOut: false };
  const hardCount = Math.max(0, Math.min(o.count, 1_000_000));

  const worker = async () => {
    while (res.issued < hardCount) {
      if (performance.now() >= deadline) {
        res.timedOut = true;
        return;
      }
      if (o.stop?.()) return;
      const req = o.next(res.issued++);
      const t0 = performance.now();
      try {
        const r = await fetch(req.url, {
          method: req.method ?? 'GET',
          headers: req.headers,
          body: req.body,
          signal: AbortSignal.timeout(timeout),
        });
        const text = await r.text();
        const ms = performance.now() - t0;
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        if (!r.ok) throw new Error(`HTTP ${r.status}: ${text.slice(0, 200)}`);
        o.check?.(body, r.status);
        res.latencies.push(ms);
        res.lastBody = body;
      } catch (err) {
        res.errors++;
        res.firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, 256)) }, worker));
  res.elapsedMs = performance.now() - started;
  return res;
}
