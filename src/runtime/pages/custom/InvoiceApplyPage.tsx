import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Skeleton } from 'antd';
import { getForm } from '../../../schema/registry';
import { LazyFormPage as FormPage } from '../lazy';
import { DetailNotFound } from '../DetailNotFound';
import { useLoad } from './useLoad';
import { PreloadedOptions } from '../RemoteSelect';

const CHOICES_API = '/api/invoices/invoiceable-orders';

interface Defaults {
  title: string;
  taxNo: string;
  email: string;
}

/**
 * 申请开票 (/…/invoice-manage/apply/:id?): the business's title, tax number and last receiving e-mail are
 * filled in; the order picker offers only invoiceable orders (GET /api/invoices/invoiceable-orders:
 * paid, not yet invoiced, with amount and payment date); with an order id that order is chosen.
 */
export function InvoiceApplyPage() {
  const { id } = useParams();
  const defaults = useLoad<Defaults>('/api/invoices/apply-defaults', '开票信息');
  const choices = useLoad<Array<{ value: string; label: string }>>(CHOICES_API, '可开票订单');
  const order = useLoad<{ orderNo: string }>(id ? `/api/orders/${encodeURIComponent(id)}` : null, '订单');
  const initialValues = useMemo(() => {
    if (!defaults.data) return undefined;
    const { title, taxNo, email } = defaults.data;
    return {
      title: title || undefined,
      taxNo: taxNo || undefined,
      email: email || undefined,
      ...(order.data ? { orderNos: [order.data.orderNo] } : {}),
    };
  }, [defaults.data, order.data]);
  const preloaded = useMemo(() => ({ [CHOICES_API]: choices.data }), [choices.data]);
  if (order.notFound) return <DetailNotFound message={order.notFound} />;
  if (!initialValues || choices.loading || (id && order.loading)) return <Skeleton active />;
  const offered = choices.data?.some((c) => c.value === order.data?.orderNo);
  return (
    <>
      {choices.data?.length === 0 && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="no-invoiceable-orders" message="暂无可开票的订单：订单支付后才能开票，已开票的订单不能再次开票。" />
      )}
      {order.data && !offered && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={`订单 ${order.data.orderNo} 未支付或已开票，不能开票，请选择其他订单。`} />
      )}
      {/* The picker shows the choices read above instead of asking for them again. */}
      <PreloadedOptions.Provider value={preloaded}>
        <FormPage schema={getForm('invoice-apply')} initialValues={offered ? initialValues : { ...initialValues, orderNos: undefined }} />
      </PreloadedOptions.Provider>
    </>
  );
}
