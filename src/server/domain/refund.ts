import type { Db } from '../db.ts';
import { DomainError } from './errors.ts';
import { cents, fmtYuan, isPositiveCents, serialNo, type BizRef } from './util.ts';

export interface RefundInput {
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
export async function applyRefund(db: Db, biz: BizRef, input: RefundInput): Promise<RefundResult> {
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
    const refundNo = serialNo('TP');
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO invoice_refunds (business_id, refund_no, invoice_no, amount_cents, reason, status)
       VALUES ($1,$2,$3,$4,$5,'applying') RETURNING id`,
      [biz.businessId, refundNo, invoiceNo, amt, input.reason],
    );
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
