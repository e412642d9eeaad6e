/**
 * The gateway's clock. Every API request reads it once (`req.now`), and the business's today, the
 * statuses derived from dates (src/shared/cover-status.ts) and the dates a write checks follow from
 * that one instant.
 *
 * In production it is the system clock. A development or test gateway started with `fakeClock`
 * (FAKE_CLOCK=1) reads the system clock moved by an offset kept in the database, which
 * PUT /api/dev/clock sets: every gateway process on that database reads the same time, and a test
 * moves a day forward without sleeping. A production start with it is refused (server.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Queryable } from './db.ts';
import { badInput, ok } from './http/errors.ts';

export type Clock = () => Promise<Date>;

export const systemClock: Clock = async () => new Date();

/** The offset of the movable clock (one row). */
export const DEV_CLOCK_DDL = `CREATE TABLE IF NOT EXISTS dev_clock (
  id BOOLEAN PRIMARY KEY DEFAULT true CHECK (id),
  offset_ms BIGINT NOT NULL
)`;

/** The system clock moved by the offset stored in dev_clock (none: the system clock). */
export function storedOffsetClock(db: Queryable): Clock {
  return async () => {
    const [row] = await db.query<{ offset_ms: string | number }>('SELECT offset_ms FROM dev_clock');
    return new Date(Date.now() + Number(row?.offset_ms ?? 0));
  };
}

/**
 * PUT /api/dev/clock { now: ISO 8601 | null }: the movable clock reads `now` from this moment on (and
 * runs on from it); null puts it back to the system time. Answers the clock's time. Registered only
 * with the movable clock.
 */
export async function devClockRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  app.put<{ Body: { now?: unknown } }>(
    '/api/dev/clock',
    { config: { auth: 'user' }, schema: { tags: ['dev'], summary: '开发/测试：设置网关时钟（生产环境不存在此接口）' } },
    async (req) => {
      const raw = req.body?.now;
      if (raw === null || raw === undefined) {
        await db.query('DELETE FROM dev_clock');
        return ok({ now: new Date().toISOString() });
      }
      const at = typeof raw === 'string' ? new Date(raw) : new Date(Number.NaN);
      if (Number.isNaN(at.getTime())) throw badInput('now 应为 ISO 8601 时间，如 2026-11-25T09:00:00+08:00', [{ field: 'now', message: '时间格式不正确' }]);
      await db.query(
        `INSERT INTO dev_clock (id, offset_ms) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET offset_ms = EXCLUDED.offset_ms`,
        [at.getTime() - Date.now()],
      );
      return ok({ now: at.toISOString() });
    },
  );
}
