import { PrefilledForm } from './PrefilledForm';

/** 申请开票 (/…/invoice-manage/apply/:id?): with an order id, that order is pre-selected. */
export function InvoiceApplyPage() {
  return <PrefilledForm<{ orderNo: string }> form="invoice-apply" api="/api/orders" what="订单" toValues={(o) => ({ orderNos: [o.orderNo] })} />;
}
