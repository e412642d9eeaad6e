import type { Queryable } from '../db.ts';
import { PLANS } from '../seed.ts';
import { cents } from './util.ts';
import { DomainError } from './errors.ts';

export interface Plan {
  id: string;
  name: string;
  unit: 'month' | 'day';
  priceCents: number;
  claimLimitCents: number;
  onSale: boolean;
}

/** Stable ids and claim limits for the plans the product sells today (limits in cents). */
const KNOWN: Record<string, { id: string; claimLimitCents: number }> = {
  '雇主责任险·标准版（60万）': { id: 'employer-std-60w', claimLimitCents: 600_000_00 },
  '团体意外险·基础版（30万）': { id: 'group-accident-30w', claimLimitCents: 300_000_00 },
  '骑手意外险·升级版（80万）': { id: 'rider-accident-80w', claimLimitCents: 800_000_00 },
  '灵活用工日单险（按天）': { id: 'flex-day', claimLimitCents: 200_000_00 },
};

/** Default limit for a plan whose name does not say it (20万). */
const DEFAULT_LIMIT_CENTS = 200_000_00;

/** The rows seedPlans writes: ids and limits from KNOWN, else parsed from 「（60万）」 in the name. */
export function planSeedRows(): Plan[] {
  return Object.entries(PLANS).map(([name, p], i) => {
    const known = KNOWN[name];
    const m = /（(\d+)万）/.exec(name);
    return {
      id: known?.id ?? `plan-${i + 1}`,
      name,
      unit: p.unit,
      priceCents: p.cents,
      claimLimitCents: known?.claimLimitCents ?? (m ? Number(m[1]) * 10_000_00 : DEFAULT_LIMIT_CENTS),
      onSale: true,
    };
  });
}

/** Inserts the plans from seed.ts PLANS; existing rows (maybe repriced by operations) are left alone. */
export async function seedPlans(db: Queryable): Promise<void> {
  for (const p of planSeedRows()) {
    await db.query(
      `INSERT INTO plans (id, name, unit, price_cents, claim_limit_cents, on_sale)
       VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (id) DO NOTHING`,
      [p.id, p.name, p.unit, p.priceCents, p.claimLimitCents, p.onSale],
    );
  }
}

interface PlanRow {
  id: string;
  name: string;
  unit: 'month' | 'day';
  price_cents: number;
  claim_limit_cents: number;
  on_sale: boolean;
}

const toPlan = (r: PlanRow): Plan => ({
  id: r.id,
  name: r.name,
  unit: r.unit,
  priceCents: cents(r.price_cents),
  claimLimitCents: cents(r.claim_limit_cents),
  onSale: r.on_sale,
});

/** A plan by id or (for today's routes, which send planName) by its name. */
export async function findPlan(q: Queryable, idOrName: string): Promise<Plan | undefined> {
  const rows = await q.query<PlanRow>(
    `SELECT id, name, unit, price_cents::float8 AS price_cents, claim_limit_cents::float8 AS claim_limit_cents, on_sale
       FROM plans WHERE id = $1 OR name = $1 ORDER BY (id = $1) DESC LIMIT 1`,
    [idOrName],
  );
  return rows[0] ? toPlan(rows[0]) : undefined;
}

/** A plan that is on sale with the expected pricing unit, or a domain error. */
export async function requirePlan(q: Queryable, idOrName: string, unit: 'month' | 'day'): Promise<Plan> {
  const plan = idOrName ? await findPlan(q, idOrName) : undefined;
  if (!plan || !plan.onSale) throw new DomainError(400, '该保险方案不存在或已停售', 'planId');
  if (plan.unit !== unit) {
    throw new DomainError(400, unit === 'month' ? '请选择按月计费的保险方案' : '请选择按天计费的保险方案', 'planId');
  }
  return plan;
}

export async function listPlans(q: Queryable, unit?: 'month' | 'day'): Promise<Plan[]> {
  const rows = await q.query<PlanRow>(
    `SELECT id, name, unit, price_cents::float8 AS price_cents, claim_limit_cents::float8 AS claim_limit_cents, on_sale
       FROM plans WHERE on_sale AND ($1::text IS NULL OR unit = $1) ORDER BY id`,
    [unit ?? null],
  );
  return rows.map(toPlan);
}
