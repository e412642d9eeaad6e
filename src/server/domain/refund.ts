import type { Db } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { pickWritable } from '../entity/record.ts';
import { repoEntities } from '../entity/repo.ts';
import { insertRow } from '../entity/write.ts';
import { DomainError } from './errors.ts';
import { cents, fmtYuan, isPositiveCents, serialNo, type BizRef } from './util.ts';

/** The refund entity's fields as the request gives them; the domain reads the ones below (amount in cents). */
export interface RefundInput extends Record<string, unknown> {
  invoiceNo: string;
  amountCents: number;
  reason: string;
}

export interface RefundResult {
  id: number;
  refundNo: string;
  amountCents: number;
  refundedCents: number;
  remainingCents: number;
}

/**
 * Applies for a refund against an issued invoice. One conditional UPDATE adds to refunded_cents only
 * while the total stays within the invoice amount, so parallel requests can never over-refund.
 */
export async function applyRefund(
  db: Db,
  biz: BizRef,
  input: RefundInput,
  entity: EntitySchema = repoEntities().registry.get('invoice-refund'),
): Promise<RefundResult> {
  const amt = input.amountCents;
  if (!isPositiveCents(amt)) throw new DomainError(400, '退票金额应大于 0', 'amount');
  const invoiceNo = String(input.invoiceNo ?? '').trim();
  return db.tx(async (tx) => {
    const upd = await tx.query<{ amount: number; refunded: number }>(
      `UPDATE invoices SET refunded_cents = refunded_cents + $3
        WHERE business_id = $1 AND invoice_no = $2 AND status = 'issued' AND refunded_cents + $3 <= amount_cents
        RETURNING amount_cents::float8 AS amount, refunded_cents::float8 AS refunded`,
      [biz.businessId, invoiceNo, amt],
    );
    if (!upd[0]) {
      // The write already failed; this read only picks the message.
      const cur = await tx.query<{ status: string; amount: number; refunded: number }>(
        `SELECT status, amount_cents::float8 AS amount, refunded_cents::float8 AS refunded
           FROM invoices WHERE business_id = $1 AND invoice_no = $2`,
        [biz.businessId, invoiceNo],
      );
      if (!cur[0]) throw new DomainError(404, `发票 ${invoiceNo} 不存在`, 'invoiceNo');
      if (cur[0].status !== 'issued') throw new DomainError(400, '仅已开具的发票可申请退票', 'invoiceNo');
      const left = cents(cur[0].amount) - cents(cur[0].refunded);
      throw new DomainError(400, `该发票最多可退 ¥${fmtYuan(left)}`, 'amount');
    }
    const refundNo = await serialNo(tx, 'TP');
    // Every field of the refund entity the request gives; the domain sets number, invoice, amount and status.
    const id = await insertRow(tx, entity, biz.businessId, {
      ...pickWritable(entity, input),
      refundNo,
      invoiceNo,
      amount: amt / 100,
      status: 'applying',
    });
    const row = { id };
    const refunded = cents(upd[0].refunded);
    return { id: row.id, refundNo, amountCents: amt, refundedCents: refunded, remainingCents: cents(upd[0].amount) - refunded };
  });
}

/** Rejects a refund that is not done yet and gives its amount back to the invoice's refundable total. */
export async function rejectRefund(db: Db, biz: BizRef, refundNo: string): Promise<void> {
  await db.tx(async (tx) => {
    const rows = await tx.query<{ invoice_no: string; amount: number }>(
      `UPDATE invoice_refunds SET status = 'rejected'
        WHERE business_id = $1 AND refund_no = $2 AND status IN ('applying','approved')
        RETURNING invoice_no, amount_cents::float8 AS amount`,
      [biz.businessId, refundNo],
    );
    if (!rows[0]) throw new DomainError(409, `退票申请 ${refundNo} 不存在或已处理`, 'refundNo');
    await tx.query(
      `UPDATE invoices SET refunded_cents = refunded_cents - $3 WHERE business_id = $1 AND invoice_no = $2`,
      [biz.businessId, rows[0].invoice_no, cents(rows[0].amount)],
    );
  });
}
