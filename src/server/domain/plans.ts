/**
 * Insurance plans: rows of the platform entity `plan` (schemas/entities/plan.json, table `plans`),
 * shared by every business and kept by the platform's operations. Every reader of a plan (the pickers,
 * quotes, roster and attendance insurance, claims) comes through here; the columns come from the entity.
 * The demo plans are demo data (src/server/seed.ts).
 */
import type { Queryable } from '../db.ts';
import { selectList } from '../entity/select.ts';
import { apiSelect, columns, recordset, recordValues, storedJson, writableKeys } from '../entity/record.ts';
import { checkField } from '../../shared/entity/rules.ts';
import { repoEntities } from '../entity/repo.ts';
import type { PlanRow } from '../../generated/entities.ts';
import { ageProblem, type AgeRange } from '../../shared/insurable-age.ts';
import { DomainError, type FieldProblem } from './errors.ts';

export interface Plan {
  /** The plan's code (方案代码): what insure_records / insured_persons / claims.plan_id hold. */
  id: string;
  name: string;
  unit: 'month' | 'day';
  priceCents: number;
  claimLimitCents: number;
  /** Insurable ages (whole years on the cover start), inclusive. */
  minAge: number;
  maxAge: number;
  onSale: boolean;
}

const planEntity = () => repoEntities().registry.get('plan');

const toCents = (yuan: number): number => Math.round(Number(yuan) * 100);

const toPlan = (r: PlanRow): Plan => ({
  id: r.code,
  name: r.name,
  unit: r.unit,
  priceCents: toCents(r.price),
  claimLimitCents: toCents(r.claimLimit),
  minAge: Number(r.minAge),
  maxAge: Number(r.maxAge),
  onSale: r.onSale !== false,
});

/** A plan by code or (for today's routes, which send planName) by its name. */
export async function findPlan(q: Queryable, codeOrName: string): Promise<Plan | undefined> {
  const rows = await q.query<PlanRow>(
    `SELECT ${selectList(planEntity())} FROM plans WHERE code = $1 OR name = $1 ORDER BY (code = $1) DESC LIMIT 1`,
    [codeOrName],
  );
  return rows[0] ? toPlan(rows[0]) : undefined;
}

/** A plan that is on sale with the expected pricing unit, or a domain error. */
export async function requirePlan(q: Queryable, codeOrName: string, unit: 'month' | 'day'): Promise<Plan> {
  const plan = codeOrName ? await findPlan(q, codeOrName) : undefined;
  if (!plan || !plan.onSale) throw new DomainError(400, '该保险方案不存在或已停售', 'planId');
  if (plan.unit !== unit) {
    throw new DomainError(400, unit === 'month' ? '请选择按月计费的保险方案' : '请选择按天计费的保险方案', 'planId');
  }
  return plan;
}

/** The plans on sale (`all`: every plan) of one pricing unit when given, in the order they were added. */
export async function listPlans(q: Queryable, unit?: 'month' | 'day', opts: { all?: boolean } = {}): Promise<Plan[]> {
  const rows = await q.query<PlanRow>(
    `SELECT ${selectList(planEntity())} FROM plans WHERE (on_sale OR $2) AND ($1::text IS NULL OR unit = $1) ORDER BY id`,
    [unit ?? null, opts.all === true],
  );
  return rows.map(toPlan);
}

/**
 * The ages automatic insurance judges a person by outside an attendance submission (registering,
 * editing, starting): those of the day plans on sale, any of which an attendance submission may buy.
 */
export async function autoInsureAges(q: Queryable): Promise<AgeRange[]> {
  return (await listPlans(q, 'day')).map((p) => ({ minAge: p.minAge, maxAge: p.maxAge }));
}

/**
 * Roster rows outside the plan's insurable ages on the cover start, one problem per row with the
 * reason (「第 3 行 王五：年龄 86 岁，不在该方案可投保年龄 16–65 岁之内」), in row order.
 */
export function outOfAgeRows(
  rows: ReadonlyArray<{ name?: unknown; idCard: string }>,
  plan: AgeRange,
  onDate: string,
  rowNoOf: (idCard: string) => number,
): FieldProblem[] {
  const out: Array<FieldProblem & { n: number }> = [];
  for (const r of rows) {
    const problem = ageProblem(r.idCard, onDate, plan);
    if (!problem) continue;
    const n = rowNoOf(r.idCard);
    out.push({ n, field: `rows[${n - 1}].idCard`, message: `第 ${n} 行 ${String(r.name ?? '')}：${problem}` });
  }
  return out.sort((a, b) => a.n - b.n).map(({ field, message }) => ({ field, message }));
}

/**
 * Plans stored before they were an entity (text `id` holding the code, no ages): the id becomes the
 * code, rows get a serial id, and the ages the rule had then (16–65). Runs before the entity migration
 * (which then finds the table in its entity shape); nothing happens on any other database.
 */
export const LEGACY_PLANS_DDL = `DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name = 'plans' AND column_name = 'id' AND data_type = 'text') THEN
    ALTER TABLE plans DROP CONSTRAINT IF EXISTS plans_pkey;
    ALTER TABLE plans DROP CONSTRAINT IF EXISTS plans_name_key;
    ALTER TABLE plans RENAME COLUMN id TO code;
    ALTER TABLE plans ADD COLUMN id SERIAL PRIMARY KEY;
    ALTER TABLE plans ADD COLUMN min_age INTEGER NOT NULL DEFAULT 16;
    ALTER TABLE plans ADD COLUMN max_age INTEGER NOT NULL DEFAULT 65;
    ALTER TABLE plans ALTER COLUMN min_age DROP DEFAULT;
    ALTER TABLE plans ALTER COLUMN max_age DROP DEFAULT;
  END IF;
END $$`;

/**
 * Adds a plan to the platform's catalogue (`npm run admin -- add-plan`): every field of the plan entity
 * checked by its rule, stored through the entity's columns; a code or name already used is refused.
 */
export async function addPlan(q: Queryable, input: Record<string, unknown>): Promise<Plan> {
  const e = planEntity();
  const keys = writableKeys(e).filter((k) => input[k] !== undefined || e.fields[k].required);
  const problems: FieldProblem[] = keys.flatMap((k) => {
    const message = checkField(e.fields[k], input[k]);
    return message ? [{ field: k, message }] : [];
  });
  const range = { minAge: Number(input.minAge), maxAge: Number(input.maxAge) };
  if (!problems.length && range.minAge > range.maxAge) problems.push({ field: 'maxAge', message: '最高投保年龄不能小于最低投保年龄' });
  if (problems.length) throw new DomainError(400, problems[0].message, problems[0].field, problems);
  const taken = await q.query<{ code: string }>('SELECT code FROM plans WHERE code = $1 OR name = $2', [input.code, input.name]);
  if (taken[0]) throw new DomainError(409, `方案代码或名称已存在（${taken[0].code}）`, 'code');
  await q.query(`INSERT INTO plans (${columns(e, keys).join(', ')}) SELECT ${recordValues(keys).join(', ')} FROM ${recordset(e, keys, '$1')}`, [storedJson(e, [input], keys)]);
  const [row] = await q.query<PlanRow>(`SELECT ${apiSelect(e, Object.keys(e.fields))} FROM plans WHERE code = $1`, [input.code]);
  return toPlan(row);
}
