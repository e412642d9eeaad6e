import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Space } from 'antd';
import { getTable } from '../../../../schema/registry';
import { formatValue } from '../../../format';
import { LazyTablePage as TablePage } from '../../lazy';
import { PATHS } from '../paths';
import { useLoad } from '../useLoad';
import { MonthlyStatement } from './MonthlyStatement';
import type { Due } from './PayDialog';

/**
 * 订单管理: what is due (unpaid orders and their total, a link to them), the order list (unpaid rows
 * have 去支付, leading to the order detail where it is paid) and, for postpaid businesses, the monthly statement.
 */
export function OrderManage() {
  const navigate = useNavigate();
  const due = useLoad<Due>('/api/payments/due', '待支付金额');
  // The list reads its filters from the URL when it mounts: remount it when the summary link sets them.
  const [listKey, setListKey] = useState(0);
  const d = due.data;
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
      <TablePage key={listKey} schema={getTable('orders')} />
      {d?.chargeForm === 'postpaid' && <MonthlyStatement />}
    </Space>
  );
}
