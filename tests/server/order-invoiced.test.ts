import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db.ts';
import { applyInvoice, rejectInvoice } from '../../src/server/domain/invoice.ts';
import { backfillMoney } from '../../src/server/domain/ddl.ts';
import { INV, makeBusiness, paidOrder, targets, useTargetDb } from './money-helpers.ts';

const invoiced = async (db: Db, no: string) => (await db.query<{ invoiced: boolean }>('SELECT invoiced FROM orders WHERE order_no = $1', [no]))[0].invoiced;

for (const t of targets()) {
  describe(`orders.invoiced follows the order's active invoice (${t.name})`, () => {
    const db = useTargetDb(t);

    it('set by an invoice application, cleared when the invoice is rejected, restored by the backfill', async () => {
      const biz = await makeBusiness(db, { chargeForm: 'postpaid' });
      const a = await paidOrder(db, biz.businessId, 10_000);
      const b = await paidOrder(db, biz.businessId, 20_000);
      expect(await invoiced(db, a)).toBe(false);
      const inv = await applyInvoice(db, biz, { ...INV, orderNos: [a] });
      expect(await invoiced(db, a)).toBe(true);
      expect(await invoiced(db, b)).toBe(false);
      await rejectInvoice(db, biz, inv.invoiceNo);
      expect(await invoiced(db, a)).toBe(false);

      // Data written without the flag (older gateways, seed.ts) gets it from invoice_orders at start-up.
      await applyInvoice(db, biz, { ...INV, orderNos: [b] });
      await db.query('UPDATE orders SET invoiced = false WHERE order_no = $1', [b]);
      await backfillMoney(db);
      expect(await invoiced(db, b)).toBe(true);
      expect(await invoiced(db, a)).toBe(false);
    });
  });
}
