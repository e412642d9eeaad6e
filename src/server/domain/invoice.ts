import type { Db } from '../db.ts';
import type { EntitySchema } from '../../shared/entity/types.ts';
import { pickWritable } from '../entity/record.ts';
import { repoEntities } from '../entity/repo.ts';
import { insertRow } from '../entity/write.ts';
import { DomainError, isUniqueViolation, violatedKey, type FieldProblem } from './errors.ts';
import { cents, serialNo, type BizRef } from './util.ts';

/** The invoice entity's fields as the request gives them; the domain reads the ones below. */
export interface InvoiceInput extends Record<string, unknown> {
  orderNos: string[];
  title: string;
  taxNo: string;
  type: 'normal' | 'special';
  email: string;
}

export interface InvoiceResult {
  id: number;
  invoiceNo: string;
  amountCents: number;
  orderNos: string[];
}

const MAX_ORDERS = 100;

/**
 * Applies for one invoice over paid orders of the business. The orders are locked in order-number
 * order; the partial unique index invoice_orders_once (order_no WHERE active) makes sure an order is
 * invoiced at most once even when two requests race (reported as 「订单 X 已开票或正在开票」).
 */
export async function applyInvoice(
  db: Db,
  biz: BizRef,
  input: InvoiceInput,
  entity: EntitySchema = repoEntities().registry.get('invoice'),
): Promise<InvoiceResult> {
  const nos = [...new Set((input.orderNos ?? []).map((o) => String(o).trim()).filter(Boolean))].sort();
  if (nos.length === 0) throw new DomainError(400, '请至少选择 1 个订单', 'orderNos');
  if (nos.length > MAX_ORDERS) throw new DomainError(400, `每张发票最多关联 ${MAX_ORDERS} 个订单`, 'orderNos');
  if (input.type !== 'normal' && input.type !== 'special') throw new DomainError(400, '发票类型只能是普通发票或专用发票', 'type');
  try {
    return await db.tx(async (tx) => {
      const found = await tx.query<{ order_no: string; pay_status: string; amount_cents: number }>(
        `SELECT order_no, pay_status, amount_cents::float8 AS amount_cents FROM orders
          WHERE business_id = $1 AND order_no = ANY($2::text[]) ORDER BY order_no FOR UPDATE`,
        [biz.businessId, nos],
      );
      const used = await tx.query<{ order_no: string }>(
        'SELECT order_no FROM invoice_orders WHERE active AND order_no = ANY($1::text[])',
        [nos],
      );
      const usedSet = new Set(used.map((u) => u.order_no));
      const errs: FieldProblem[] = [];
      for (const no of nos) {
        const o = found.find((f) => f.order_no === no);
        if (!o) errs.push({ field: 'orderNos', message: `订单 ${no} 不存在` });
        else if (o.pay_status !== 'paid') errs.push({ field: 'orderNos', message: `订单 ${no} 未支付，不能开票` });
        else if (usedSet.has(no)) errs.push({ field: 'orderNos', message: `订单 ${no} 已开票或正在开票` });
      }
      if (errs.length) throw new DomainError(errs.every((e) => e.message.includes('已开票')) ? 409 : 400, errs.length === 1 ? errs[0].message : '部分订单无法开票', 'orderNos', errs);
      const amountCents = found.reduce((s, o) => s + cents(o.amount_cents), 0);
      const invoiceNo = await serialNo(tx, 'FP');
      // Every field of the invoice entity the request gives; the domain sets number, amount, status and orders.
      const id = await insertRow(tx, entity, biz.businessId, {
        ...pickWritable(entity, input),
        invoiceNo,
        type: input.type,
        amount: amountCents / 100,
        status: 'applying',
        orderNos: nos,
      });
      const row = { id };
      await tx.query(
        `INSERT INTO invoice_orders (invoice_id, order_no, business_id)
         SELECT $1, no, $2 FROM unnest($3::text[]) AS no ORDER BY no`,
        [row.id, biz.businessId, nos],
      );
      // The orders' own flag (what the order pages show and offer 申请开票 by), kept with invoice_orders.
      await tx.query('UPDATE orders SET invoiced = true WHERE business_id = $1 AND order_no = ANY($2::text[])', [biz.businessId, nos]);
      return { id: row.id, invoiceNo, amountCents, orderNos: nos };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'invoice_orders_once')) {
      const no = violatedKey(err) ?? nos[0];
      throw new DomainError(409, `订单 ${no} 已开票或正在开票`, 'orderNos');
    }
    throw err;
  }
}

/** Moves an invoice from 'applying' to 'issued' (done by finance / the invoicing service). */
export async function issueInvoice(db: Db, biz: BizRef, invoiceNo: string): Promise<void> {
  const rows = await db.query(
    `UPDATE invoices SET status = 'issued' WHERE business_id = $1 AND invoice_no = $2 AND status = 'applying' RETURNING id`,
    [biz.businessId, invoiceNo],
  );
  if (!rows[0]) throw new DomainError(409, `发票 ${invoiceNo} 不存在或不是申请中状态`, 'invoiceNo');
}

/** Rejects an invoice that is still being applied for; its orders can be invoiced again. */
export async function rejectInvoice(db: Db, biz: BizRef, invoiceNo: string): Promise<void> {
  await db.tx(async (tx) => {
    const rows = await tx.query<{ id: number }>(
      `UPDATE invoices SET status = 'rejected' WHERE business_id = $1 AND invoice_no = $2 AND status = 'applying' RETURNING id`,
      [biz.businessId, invoiceNo],
    );
    if (!rows[0]) throw new DomainError(409, `发票 ${invoiceNo} 不存在或不是申请中状态`, 'invoiceNo');
    const freed = await tx.query<{ order_no: string }>('UPDATE invoice_orders SET active = false WHERE invoice_id = $1 RETURNING order_no', [rows[0].id]);
    await tx.query('UPDATE orders SET invoiced = false WHERE business_id = $1 AND order_no = ANY($2::text[])', [biz.businessId, freed.map((f) => f.order_no)]);
  });
}
