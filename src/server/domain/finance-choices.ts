/**
 * What the invoice and refund applications start from, read with the same rules their writers enforce
 * (invoice.ts, refund.ts): orders that can be invoiced (paid, not on an applying or issued invoice),
 * invoices a refund can be applied for (issued, not yet refunded in full, with what is left), and the
 * business's invoice title, tax number and last receiving e-mail. Nothing here writes.
 */
import type { Queryable } from '../db.ts';
import { cents } from './util.ts';

/** Most choices a picker offers (newest first); older ones are found by typing in the picker. */
export const CHOICES_LIMIT = 200;

export interface InvoiceableOrder {
  id: number;
  orderNo: string;
  amountCents: number;
  /** ISO time the order was paid. */
  paidAt: string | null;
}

/**
 * Paid orders not yet invoiced (orders.invoiced follows the active invoice_orders row), newest payment first.
 * The ORDER BY names the table's column: a bare `paid_at` is the text column of the SELECT list, which no
 * index holds (a sort of every such order: about 1 s at 1M orders, against orders_invoiceable_idx's walk).
 */
export async function invoiceableOrders(q: Queryable, businessId: string, limit = CHOICES_LIMIT): Promise<InvoiceableOrder[]> {
  const rows = await q.query<{ id: number; order_no: string; amount: number; paid_at: string | null }>(
    `SELECT id, order_no, amount_cents::float8 AS amount, to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS paid_at
       FROM orders WHERE business_id = $1 AND pay_status = 'paid' AND NOT invoiced
      ORDER BY orders.paid_at DESC NULLS LAST, orders.id DESC LIMIT $2`,
    [businessId, limit],
  );
  return rows.map((r) => ({ id: r.id, orderNo: r.order_no, amountCents: cents(r.amount), paidAt: r.paid_at }));
}

export interface RefundableInvoice {
  id: number;
  invoiceNo: string;
  amountCents: number;
  refundedCents: number;
  /** What a refund may still ask for (amount − refunds not rejected). */
  leftCents: number;
  createdAt: string;
}

/** Issued invoices whose refunds (applying, approved or done) do not yet cover their amount, newest first (the table's created_at, as above). */
export async function refundableInvoices(q: Queryable, businessId: string, limit = CHOICES_LIMIT): Promise<RefundableInvoice[]> {
  const rows = await q.query<{ id: number; invoice_no: string; amount: number; refunded: number; created_at: string }>(
    `SELECT id, invoice_no, amount_cents::float8 AS amount, refunded_cents::float8 AS refunded,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
       FROM invoices WHERE business_id = $1 AND status = 'issued' AND refunded_cents < amount_cents
      ORDER BY invoices.created_at DESC, invoices.id DESC LIMIT $2`,
    [businessId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    invoiceNo: r.invoice_no,
    amountCents: cents(r.amount),
    refundedCents: cents(r.refunded),
    leftCents: cents(r.amount) - cents(r.refunded),
    createdAt: r.created_at,
  }));
}

export interface InvoiceDefaults {
  /** The business's name: the invoice title. */
  title: string;
  /** The business's tax number, else the one its last invoice used ('' when neither). */
  taxNo: string;
  /** The e-mail the last invoice was sent to ('' when none). */
  email: string;
}

export async function invoiceDefaults(q: Queryable, businessId: string): Promise<InvoiceDefaults> {
  const [row] = await q.query<{ name: string; tax_no: string | null; last_tax_no: string | null; last_email: string | null }>(
    `SELECT b.name, b.tax_no, l.tax_no AS last_tax_no, l.email AS last_email
       FROM businesses b
       LEFT JOIN LATERAL (SELECT tax_no, email FROM invoices i WHERE i.business_id = b.id ORDER BY i.created_at DESC, i.id DESC LIMIT 1) l ON true
      WHERE b.id = $1`,
    [businessId],
  );
  return { title: row?.name ?? '', taxNo: row?.tax_no || row?.last_tax_no || '', email: row?.last_email ?? '' };
}
