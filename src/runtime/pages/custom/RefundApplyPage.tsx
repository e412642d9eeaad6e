import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Skeleton } from 'antd';
import { getForm } from '../../../schema/registry';
import { formatValue } from '../../format';
import { LazyFormPage as FormPage } from '../lazy';
import { DetailNotFound } from '../DetailNotFound';
import { useLoad } from './useLoad';

/** GET /api/invoice-refunds/refundable-invoices: issued invoices not yet refunded in full. */
interface Refundable {
  value: string;
  id: number;
  amount: number;
  left: number;
}

/**
 * 申请退票 (/…/invoice-manage/apply-refund/:id?): the invoice picker offers only refundable invoices,
 * each with what is left to refund; with an invoice id that invoice is chosen and 退票金额 starts at what
 * is left (the gateway still checks it under concurrent requests).
 */
export function RefundApplyPage() {
  const { id } = useParams();
  const choices = useLoad<Refundable[]>('/api/invoice-refunds/refundable-invoices', '可退票发票');
  const invoice = useLoad<{ invoiceNo: string }>(id ? `/api/invoices/${encodeURIComponent(id)}` : null, '发票');
  const chosen = choices.data?.find((c) => c.value === invoice.data?.invoiceNo);
  const initialValues = useMemo(() => (chosen ? { invoiceNo: chosen.value, amount: chosen.left } : undefined), [chosen]);
  if (invoice.notFound) return <DetailNotFound message={invoice.notFound} />;
  if (choices.loading || (id && invoice.loading)) return <Skeleton active />;
  return (
    <>
      {choices.data?.length === 0 && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="no-refundable-invoices" message="暂无可申请退票的发票：只有已开具且未退完的发票可以申请退票。" />
      )}
      {invoice.data && !chosen && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={`发票 ${invoice.data.invoiceNo} 未开具或已退完，不能申请退票。`} />
      )}
      {chosen && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="refund-left"
          message={`发票 ${chosen.value}：发票金额 ${formatValue(chosen.amount, 'money')}，可退 ${formatValue(chosen.left, 'money')}`}
        />
      )}
      <FormPage schema={getForm('invoice-refund-apply')} initialValues={initialValues} />
    </>
  );
}
