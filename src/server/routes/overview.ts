import type { FastifyInstance } from 'fastify';
import { ok } from '../http/errors.ts';

export default async function overviewRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  app.get('/api/overview', { config: { auth: 'business' }, schema: { tags: ['overview'], summary: '首页概览数字' } }, async (req) => {
    const id = req.business.businessId;
    const monthStart = `${new Date().toISOString().slice(0, 7)}-01`;
    const [row] = await db.query<Record<string, number>>(
      `SELECT
         (SELECT count(*)::int FROM insured_persons WHERE business_id = $1 AND status = 'insured') AS "insuredCount",
         (SELECT count(*)::int FROM insured_persons WHERE business_id = $1 AND status = 'pending') AS "pendingCount",
         (SELECT coalesce(sum(premium_cents), 0)::float8 / 100 FROM insure_records
            WHERE business_id = $1 AND status <> 'cancelled' AND created_at >= ($2::date)::timestamp AT TIME ZONE 'UTC') AS "monthPremium",
         (SELECT count(*)::int FROM orders WHERE business_id = $1 AND pay_status = 'unpaid') AS "unpaidOrders",
         (SELECT count(*)::int FROM claims WHERE business_id = $1 AND status IN ('reported','reviewing')) AS "openClaims",
         (SELECT balance_cents::float8 / 100 FROM businesses WHERE id = $1) AS balance`,
      [id, monthStart],
    );
    return ok(row);
  });
}
