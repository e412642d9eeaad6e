import type { Db } from '../db.ts';
import { DomainError } from './errors.ts';
import { getBalance } from './balance.ts';
import { coverStartError } from './cover.ts';
import { coverPeriod, loadBusiness, MAX_BATCH_ROWS, orderCount, type InsureOptions } from './insure.ts';
import { findPlan } from './plans.ts';
import { addDays, isIsoDate, type BizRef } from './util.ts';
import { premiumCents } from '../../shared/money.ts';

export interface Quote {
  planId: string;
  planName: string;
  unit: 'month' | 'day';
  people: number;
  /** Orders the persons make (MAX_BATCH_ROWS each); the total covers all of them. */
  orders: number;
  units: number;
  unitPriceCents: number;
  totalCents: number;
  balanceCents: number;
  chargeForm: 'prepaid' | 'postpaid';
  enough: boolean;
  startDate: string;
  endDate: string;
  /** Why the start date would be refused, or null. */
  startError: string | null;
}

/** The cost breakdown for the console's confirmation step (nothing is stored). */
export async function quoteInsurance(
  db: Db,
  biz: BizRef,
  input: { planId: string; startDate: string; people: number; days?: number; maxPeople?: number },
  opts: InsureOptions = {},
): Promise<Quote> {
  const plan = await findPlan(db, input.planId);
  if (!plan || !plan.onSale) throw new DomainError(400, '该保险方案不存在或已停售', 'planId');
  const maxPeople = input.maxPeople ?? MAX_BATCH_ROWS;
  if (!Number.isSafeInteger(input.people) || input.people < 1 || input.people > maxPeople) {
    throw new DomainError(400, `人数应为 1–${maxPeople}`, 'people');
  }
  const days = input.days ?? 1;
  if (!Number.isSafeInteger(days) || days < 1 || days > 366) throw new DomainError(400, '天数应为 1–366', 'days');
  const b = await loadBusiness(db, biz.businessId);
  const balanceCents = await getBalance(db, biz.businessId);
  const units = plan.unit === 'month' ? 12 : days;
  const totalCents = premiumCents(plan.priceCents, units, input.people);
  const endDate = isIsoDate(input.startDate)
    ? plan.unit === 'month' ? coverPeriod('roster', input.startDate).endDate : addDays(input.startDate, days - 1)
    : '';
  return {
    planId: plan.id,
    planName: plan.name,
    unit: plan.unit,
    people: input.people,
    orders: orderCount(input.people),
    units,
    unitPriceCents: plan.priceCents,
    totalCents,
    balanceCents,
    chargeForm: b.charge_form,
    enough: b.charge_form === 'postpaid' || balanceCents >= totalCents,
    startDate: input.startDate,
    endDate,
    startError: coverStartError(input.startDate, opts.now ?? new Date(), opts.cutoff),
  };
}
