import type { Db, Queryable } from '../db.ts';
import { DomainError } from './errors.ts';
import { cents, fmtYuan, isPositiveCents, type BizRef } from './util.ts';

/**
 * Atomically takes `amountCents` from a prepaid balance and writes the matching ledger row.
 * The conditional UPDATE both checks and deducts (no read-then-write), and row-locks the business
 * until the transaction ends. Throws 「余额不足…」 when the balance is short; nothing is changed then.
 */
export async function deductBalance(
  tx: Queryable,
  businessId: string,
  amountCents: number,
  reason: string,
  ref: string,
): Promise<number> {
  const rows = await tx.query<{ balance: number }>(
    `UPDATE businesses SET balance_cents = balance_cents - $2
      WHERE id = $1 AND balance_cents >= $2 RETURNING balance_cents::float8 AS balance`,
    [businessId, amountCents],
  );
  if (!rows[0]) {
    const cur = await tx.query<{ balance: number }>('SELECT balance_cents::float8 AS balance FROM businesses WHERE id = $1', [businessId]);
    if (!cur[0]) throw new DomainError(404, '企业不存在');
    throw new DomainError(
      400,
      `余额不足：本次需支付 ¥${fmtYuan(amountCents)}，当前余额 ¥${fmtYuan(cents(cur[0].balance))}，请先充值`,
      'balance',
    );
  }
  await tx.query('INSERT INTO balance_ledger (business_id, delta_cents, reason, ref) VALUES ($1,$2,$3,$4)', [
    businessId,
    -amountCents,
    reason,
    ref,
  ]);
  return cents(rows[0].balance);
}

/** Adds money to a balance (recharge, refund to balance) with its ledger row. Returns the new balance. */
export async function creditBalance(tx: Queryable, businessId: string, amountCents: number, reason: string, ref: string): Promise<number> {
  if (!isPositiveCents(amountCents)) throw new DomainError(400, '金额应为大于 0 的整数分', 'amount');
  const rows = await tx.query<{ balance: number }>(
    'UPDATE businesses SET balance_cents = balance_cents + $2 WHERE id = $1 RETURNING balance_cents::float8 AS balance',
    [businessId, amountCents],
  );
  if (!rows[0]) throw new DomainError(404, '企业不存在');
  await tx.query('INSERT INTO balance_ledger (business_id, delta_cents, reason, ref) VALUES ($1,$2,$3,$4)', [
    businessId,
    amountCents,
    reason,
    ref,
  ]);
  return cents(rows[0].balance);
}

/** Recharge of a prepaid balance (e.g. after a confirmed bank transfer). */
export async function topUpBalance(db: Db, biz: BizRef, amountCents: number, ref: string): Promise<number> {
  return db.tx((tx) => creditBalance(tx, biz.businessId, amountCents, 'topup', ref));
}

export async function getBalance(q: Queryable, businessId: string): Promise<number> {
  const rows = await q.query<{ balance: number }>('SELECT balance_cents::float8 AS balance FROM businesses WHERE id = $1', [businessId]);
  if (!rows[0]) throw new DomainError(404, '企业不存在');
  return cents(rows[0].balance);
}
