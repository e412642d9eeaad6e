import type { FastifyInstance } from 'fastify';
import { ok } from '../http/errors.ts';
import { PLANS } from '../seed.ts';

// Insurance plans on sale: roster cover is priced per month, attendance cover per day.
export default async function planRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { unit?: string } }>(
    '/api/plans',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['plans'],
        summary: '在售保险方案',
        querystring: { type: 'object', properties: { unit: { type: 'string', title: '计费单位', maxLength: 10 } } },
      },
    },
    async (req) => {
      const u = req.query.unit;
      const unit = u === 'month' || u === 'day' ? u : undefined;
      return ok(
        Object.entries(PLANS)
          .filter(([, p]) => !unit || p.unit === unit)
          .map(([name, p]) => ({
            value: name,
            label: `${name} · ¥${(p.cents / 100).toFixed(2)}/${p.unit === 'month' ? '人·月' : '人·天'}`,
            unit: p.unit,
            price: p.cents / 100,
          })),
      );
    },
  );
}
