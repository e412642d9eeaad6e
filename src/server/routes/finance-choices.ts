import type { FastifyInstance } from 'fastify';
import { fmtYuan, invoiceableOrders, invoiceDefaults, refundableInvoices } from '../domain/index.ts';
import { ok } from '../http/errors.ts';
import { localParts } from '../domain/util.ts';

/** The picker's paging parameters (RemoteSelect sends them); the answer is the newest CHOICES_LIMIT. */
const querystring = { type: 'object', properties: { current: { type: 'string' }, pageSize: { type: 'string' } } };

/** A stored ISO time as the business's calendar date. */
const dateOf = (iso: string | null) => (iso ? localParts(new Date(iso)).date : '');

/**
 * Choices of the invoice and refund applications (src/server/domain/finance-choices.ts): only what the
 * gateway would accept, labelled with the amount and date a user picks by.
 */
export default async function financeChoiceRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  app.get('/api/invoices/invoiceable-orders', { config: { auth: 'business' }, schema: { tags: ['invoices'], summary: '可开票订单（已支付、未开票）', querystring } as never }, async (req) => {
    const orders = await invoiceableOrders(db, req.business.businessId);
    return ok(orders.map((o) => ({ value: o.orderNo, label: `${o.orderNo} · ¥${fmtYuan(o.amountCents)} · ${dateOf(o.paidAt)} 支付`, id: o.id, amount: o.amountCents / 100, paidAt: o.paidAt })));
  });

  app.get('/api/invoices/apply-defaults', { config: { auth: 'business' }, schema: { tags: ['invoices'], summary: '申请开票的默认抬头、税号和邮箱' } as never }, async (req) =>
    ok(await invoiceDefaults(db, req.business.businessId)),
  );

  app.get('/api/invoice-refunds/refundable-invoices', { config: { auth: 'business' }, schema: { tags: ['invoice-refunds'], summary: '可申请退票的发票（已开具、未退完）及可退金额', querystring } as never }, async (req) => {
    const invoices = await refundableInvoices(db, req.business.businessId);
    return ok(
      invoices.map((i) => ({
        value: i.invoiceNo,
        label: `${i.invoiceNo} · 发票金额 ¥${fmtYuan(i.amountCents)} · 可退 ¥${fmtYuan(i.leftCents)}`,
        id: i.id,
        amount: i.amountCents / 100,
        left: i.leftCents / 100,
        createdAt: i.createdAt,
      })),
    );
  });
}
