import type { FastifyInstance } from 'fastify';
import { ok } from '../http/errors.ts';
import { fmtYuan, listPlans } from '../domain/index.ts';

/**
 * The plan pickers' options (rows of the plan entity, src/server/domain/plans.ts): roster cover is
 * priced per month, attendance cover per day. `all=true` adds the plans no longer on sale (list filters:
 * old records still carry their names).
 */
export default async function planRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  app.get<{ Querystring: { unit?: string; all?: string } }>(
    '/api/plans',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['plans'],
        summary: '保险方案（默认只含在售方案）',
        querystring: {
          type: 'object',
          properties: {
            unit: { type: 'string', title: '计费单位', description: 'month 或 day', maxLength: 10 },
            all: { type: 'string', title: '含已停售方案', description: 'true：列表筛选用', maxLength: 5 },
          },
        },
      },
    },
    async (req) => {
      const u = req.query.unit;
      const unit = u === 'month' || u === 'day' ? u : undefined;
      const plans = await listPlans(db, unit, { all: req.query.all === 'true' });
      return ok(
        plans.map((p) => {
          const per = p.unit === 'month' ? '人·月' : '人·天';
          return {
            value: p.name,
            label: `${p.name} · ¥${fmtYuan(p.priceCents)}/${per} · ${p.minAge}–${p.maxAge} 周岁${p.onSale ? '' : '（已停售）'}`,
            code: p.id,
            unit: p.unit,
            price: p.priceCents / 100,
            minAge: p.minAge,
            maxAge: p.maxAge,
            claimLimit: p.claimLimitCents / 100,
            onSale: p.onSale,
          };
        }),
      );
    },
  );
}
