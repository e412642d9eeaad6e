/**
 * The parse queue of roster uploads, kept in the database so any gateway process may parse any upload
 * and no process holds queue state: an upload waits as 'parsing' with no parse_owner; each process runs
 * up to parseSlots() parses and claims the oldest waiting upload of a business that has none running
 * (a unique index allows one claimed parse per business), so one business's files never hold every
 * worker while another's wait. A process polls for work every POLL_MS and right after an upload or a
 * finished parse; claims whose heartbeat went stale are queued again (SETTLE_STALE_PARSES), and a
 * closing process gives its claims back for another process to take.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db.ts';
import { parseSlots } from '../files/parse-in-worker.ts';
import { startParse, type ParseClaim, type ParseDeps } from './insure-upload-parse.ts';
import { notifyUpload } from './insure-upload-wait.ts';
import { PARSE_INTERRUPTED, SETTLE_STALE_PARSES, STALE_PARSE_SECONDS } from './insure-upload-store.ts';

const POLL_MS = 1000;
const SETTLE_EVERY_MS = 15_000;

export interface ParseQueue {
  /** Look for waiting uploads now (e.g. one was just stored). */
  poke(): void;
  /** Gives this process's claims back to the queue and stops its parses. */
  close(): Promise<void>;
}

/** Claims the oldest waiting upload whose business has no parse running; null when there is none (or another process won it). */
export async function claimNext(db: Db): Promise<ParseClaim | null> {
  const token = randomUUID();
  try {
    const [r] = await db.query<{ id: number; business_id: string; file_key: string; file_ext: string; plan_name: string; start_date: string }>(
      `UPDATE insure_uploads SET parse_owner = $1, parse_attempts = parse_attempts + 1, updated_at = now()
        WHERE id = (SELECT q.id FROM insure_uploads q
                     WHERE q.status = 'parsing' AND q.parse_owner IS NULL
                       AND NOT EXISTS (SELECT 1 FROM insure_uploads r WHERE r.business_id = q.business_id AND r.status = 'parsing' AND r.parse_owner IS NOT NULL)
                     ORDER BY q.id LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND status = 'parsing' AND parse_owner IS NULL
        RETURNING id, business_id, file_key, file_ext, plan_name, start_date::text AS start_date`,
      [token],
    );
    return r ? { id: r.id, token, businessId: r.business_id, fileKey: r.file_key, ext: r.file_ext, planName: r.plan_name, startDate: r.start_date } : null;
  } catch (err) {
    // Two processes claimed uploads of one business at once: the unique index let one through.
    if ((err as { code?: string }).code === '23505') return null;
    throw err;
  }
}

export function startParseQueue(deps: ParseDeps, opts: { slots?: number; pollMs?: number } = {}): ParseQueue {
  const { db, log } = deps;
  const slots = opts.slots ?? parseSlots();
  const running = new Map<string, { cancel(): void; done: Promise<void> }>();
  let filling: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let settledAt = 0;

  const fill = (): Promise<void> => {
    if (filling) {
      again = true;
      return filling;
    }
    filling = claimWhileFree().finally(() => {
      filling = null;
    });
    return filling;
  };
  const claimWhileFree = async (): Promise<void> => {
    try {
      do {
        again = false;
        if (Date.now() - settledAt > SETTLE_EVERY_MS) {
          settledAt = Date.now();
          await db.query(SETTLE_STALE_PARSES(''), [PARSE_INTERRUPTED, STALE_PARSE_SECONDS]);
        }
        while (!closed && running.size < slots) {
          const claim = await claimNext(db);
          if (!claim) break;
          notifyUpload(claim.id); // queued → reading
          const run = startParse(deps, claim);
          running.set(claim.token, run);
          void run.done.finally(() => {
            running.delete(claim.token);
            if (!closed) void fill();
          });
        }
      } while (again && !closed);
    } catch (err) {
      if (!closed) log.warn({ err }, 'parse queue: no upload claimed');
    }
  };

  const timer = setInterval(() => void fill(), opts.pollMs ?? POLL_MS);
  timer.unref();
  void fill(); // what waited while no process ran (e.g. across a restart)

  return {
    poke: () => void fill(),
    async close() {
      closed = true;
      clearInterval(timer);
      await filling; // a claim in flight is then in `running` and given back below
      const tokens = [...running.keys()];
      if (tokens.length) {
        await db
          .query(
            `UPDATE insure_uploads SET parse_owner = NULL, parse_attempts = GREATEST(parse_attempts - 1, 0), updated_at = now()
              WHERE status = 'parsing' AND parse_owner = ANY($1::text[])`,
            [tokens],
          )
          .catch((err: unknown) => log.warn({ err }, 'parse queue: claims not given back'));
      }
      for (const r of running.values()) r.cancel();
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
