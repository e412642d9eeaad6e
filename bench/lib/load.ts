/**
 * A bounded closed-loop load generator: `concurrency` workers each take the next request from a
 * generator, await it, record its latency and go again, until `count` requests were issued or
 * `durationMs` elapsed (whichever comes first). In-flight requests are aborted after
 * `requestTimeoutMs`. Requests go through node:http with a keep-alive agent (one socket per worker)
 * rather than fetch: the generator shares the machine with the gateway and the database, and fetch
 * costs it about as much CPU per request as the gateway spends answering. Bodies are asked for
 * compressed (br, gzip) as a browser does, so the gateway pays for compression as in production.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

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
  /**
   * Requests sent first and not recorded (same concurrency): the gateway's pool connections, the
   * database backends' caches and the JIT are warm before the measured requests, as in production.
   */
  warmup?: number;
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

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One request; resolves with the status and the decoded body text. */
function send(req: LoadRequest, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const r = request(
      req.url,
      {
        agent,
        method: req.method ?? 'GET',
        headers: { 'accept-encoding': 'br, gzip', ...(req.body ? { 'content-length': Buffer.byteLength(req.body) } : {}), ...req.headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const raw = Buffer.concat(chunks);
            const enc = res.headers['content-encoding'];
            const body = enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw;
            resolve({ status: res.statusCode ?? 0, text: body.toString('utf8') });
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    r.on('timeout', () => r.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  if (o.warmup) await runLoad({ ...o, warmup: 0, count: o.warmup, check: undefined });
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
        const { status, text } = await send(req, timeout);
        const ms = performance.now() - t0;
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        if (status < 200 || status > 299) throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
        o.check?.(body, status);
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
