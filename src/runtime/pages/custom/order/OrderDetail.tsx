import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Button, Card, Space, Statistic, Tag } from 'antd';
import { observer } from 'mobx-react-lite';
import { getDetail } from '../../../../schema/registry';
import { api, ApiError } from '../../../../services/request';
import { useStores } from '../../../context';
import { formatValue } from '../../../format';
import { LazyDetailPage as DetailPage } from '../../lazy';
import { DetailNotFound, notFoundMessage } from '../../DetailNotFound';
import { afterPaid, PayDialog, type Due, type PayableOrder, type PayResponse } from './PayDialog';
import { PAYMENTS_DUE } from '../pageData';

/** Label and tag colour of a pay status, from the order detail schema (the entity's options). */
function payStatusTag(value: string) {
  const f = getDetail('order').sections.flatMap((s) => s.fields).find((x) => x.dataIndex === 'payStatus');
  const o = f?.options?.find((x) => x.value === value);
  const color = o?.status === 'Success' ? 'success' : o?.status === 'Warning' ? 'warning' : 'default';
  return <Tag color={color}>{o?.label ?? value}</Tag>;
}

/**
 * 订单详情: what is due and a 去支付 action for an unpaid order (confirmation with the amount and the
 * balance), then the order's fields from the detail schema. After paying both reload from the gateway.
 */
export const OrderDetail = observer(function OrderDetail() {
  const { id = '' } = useParams();
  const { user } = useStores();
  const [version, setVersion] = useState(0);
  const [order, setOrder] = useState<PayableOrder>();
  const [due, setDue] = useState<Due>();
  const [error, setError] = useState<ApiError | string>();
  const [paying, setPaying] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([api.get<PayableOrder>(`/api/orders/${encodeURIComponent(id)}`), api.get<Due>(PAYMENTS_DUE)])
      .then(([o, d]) => {
        if (!live) return;
        setOrder(o);
        setDue(d);
      })
      .catch((e: unknown) => live && setError(e instanceof ApiError ? e : '订单加载失败'));
    return () => {
      live = false;
    };
  }, [id, version]);

  const paid = (r: PayResponse) => {
    setPaying(false);
    afterPaid(user, r);
    setVersion((v) => v + 1);
  };

  if (notFoundMessage(error)) return <DetailNotFound message={notFoundMessage(error)} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {error && <Alert type="error" showIcon role="alert" message={error instanceof ApiError ? error.message : error} />}
      {order && due && (
        <Card title="支付" data-testid="order-pay">
          <Space size={48} wrap align="center">
            <Statistic title="订单金额" value={formatValue(order.amount, 'money')} />
            <div>
              <div style={{ color: 'rgba(0,0,0,0.55)', marginBottom: 8 }}>支付状态</div>
              <span data-testid="order-pay-status">{payStatusTag(order.payStatus)}</span>
            </div>
            {due.chargeForm === 'prepaid' && (
              <Statistic title="账户余额" value={formatValue(due.balance, 'money')} data-testid="order-balance" />
            )}
            {order.payStatus === 'unpaid' && (
              <Button type="primary" size="large" onClick={() => setPaying(true)} data-testid="order-pay-button">
                去支付
              </Button>
            )}
          </Space>
        </Card>
      )}
      <DetailPage key={version} schema={getDetail('order')} />
      {paying && order && due && <PayDialog order={order} due={due} onClose={() => setPaying(false)} onPaid={paid} />}
    </Space>
  );
});
