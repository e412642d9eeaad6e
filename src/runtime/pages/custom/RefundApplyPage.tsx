import { PrefilledForm } from './PrefilledForm';

/** 申请退票 (/…/invoice-manage/apply-refund/:id?): with an invoice id, that invoice is pre-filled. */
export function RefundApplyPage() {
  return <PrefilledForm<{ invoiceNo: string }> form="invoice-refund-apply" api="/api/invoices" what="发票" toValues={(i) => ({ invoiceNo: i.invoiceNo })} />;
}
