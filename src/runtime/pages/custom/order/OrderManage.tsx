import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Space } from 'antd';
import { observer } from 'mobx-react-lite';
import { getTable } from '../../../../schema/registry';
import { useStores } from '../../../context';
import { formatValue } from '../../../format';
import { message } from '../../../feedback';
import { LazyTablePage as TablePage } from '../../lazy';
import { PATHS } from '../paths';
import { useLoad } from '../useLoad';
import { MonthlyStatement } from './MonthlyStatement';
import { afterPaid, PayDialog, type Due, type PayableOrder } from './PayDialog';
import { CUSTOM_PAGE_LISTS, PAYMENTS_DUE } from '../pageData';

type Row = Record<string, unknown>;
const PAY_LABELS = ['去支付', '详情'] as const;

/**
 * 订单管理: what is due (unpaid orders and their total, a link to them), the order list (an unpaid row's
 * 去支付 opens the payment dialog right here) and, for postpaid businesses, the monthly statement.
 */
export const OrderManage = observer(function OrderManage() {
  const navigate = useNavigate();
  const { user } = useStores();
  const due = useLoad<Due>(PAYMENTS_DUE, '待支付金额');
  // The list reads its filters from the URL when it mounts: remount it when the summary link sets them.
  const [listKey, setListKey] = useState(0);
  const [paying, setPaying] = useState<PayableOrder>();
  const reloadList = useRef<() => void>(() => undefined);
  const d = due.data;
  // The row action does not wait for what is due: the list renders once, not again when the amounts come.
  // The dialog opens as soon as they are there; if they could not be read, a click says so and asks again.
  const dueNow = useRef(due);
  dueNow.current = due;
  const rowActions = useCallback(
    (record: Row, reload: () => void) =>
      record.payStatus === 'unpaid'
        ? [
            <a
              key="pay"
              data-testid="list-pay"
              onClick={() => {
                reloadList.current = reload;
                if (dueNow.current.error) {
                  message.error(dueNow.current.error);
                  dueNow.current.reload();
                }
                setPaying({ id: Number(record.id), orderNo: String(record.orderNo), amount: Number(record.amount), payStatus: String(record.payStatus) });
              }}
            >
              去支付
            </a>,
          ]
        : [],
    [],
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {d && (
        <Alert
          data-testid="orders-due"
          type={d.unpaidCount > 0 ? 'warning' : 'success'}
          showIcon
          message={
            d.unpaidCount > 0
              ? `待支付订单 ${d.unpaidCount} 笔，合计 ${formatValue(d.unpaidAmount, 'money')}${d.chargeForm === 'prepaid' ? `；账户余额 ${formatValue(d.balance, 'money')}` : ''}`
              : '没有待支付的订单'
          }
          action={
            d.unpaidCount > 0 ? (
              <Button
                size="small"
                type="primary"
                onClick={() => {
                  navigate(`${PATHS.orders}?payStatus=unpaid&current=1`);
                  setListKey((k) => k + 1);
                }}
              >
                查看待支付订单
              </Button>
            ) : undefined
          }
        />
      )}
      <TablePage key={listKey} schema={getTable(CUSTOM_PAGE_LISTS.OrderManage)} rowActions={rowActions} rowActionLabels={PAY_LABELS} />
      {d?.chargeForm === 'postpaid' && <MonthlyStatement />}
      {paying && d && (
        <PayDialog
          order={paying}
          due={d}
          onClose={() => setPaying(undefined)}
          onPaid={(r) => {
            setPaying(undefined);
            afterPaid(user, r);
            reloadList.current();
            due.reload();
          }}
        />
      )}
    </Space>
  );
});
