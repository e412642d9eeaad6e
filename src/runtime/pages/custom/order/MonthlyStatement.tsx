import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Card, Empty, Select, Space, Statistic, Table } from 'antd';
import { getTable } from '../../../../schema/registry';
import { formatValue } from '../../../format';
import { LoadState } from '../LoadState';
import { useLoad } from '../useLoad';
import { PATHS } from '../paths';

interface StatementMonth {
  month: string;
  amount: number;
  orderCount: number;
  status: string;
}

interface StatementOrder {
  id?: number;
  orderNo: string;
  productName?: string;
  personCount?: number;
  amount: number;
  payStatus: string;
  createdAt: string;
}

interface Statement {
  month: string;
  amount: number;
  orderCount: number;
  unpaidAmount: number;
  orders: StatementOrder[];
}

const payStatusLabel = (v: string) => formatValue(v, 'enum', getTable('orders').columns.find((c) => c.dataIndex === 'payStatus')?.options);

/** 月结账单 (postpaid businesses): pick a month, see its orders (linked to their details) and the total. */
export function MonthlyStatement() {
  const months = useLoad<StatementMonth[]>('/api/statements', '月结账单');
  const [month, setMonth] = useState<string>();
  useEffect(() => {
    if (!month && months.data?.length) setMonth(months.data[0].month);
  }, [month, months.data]);
  const statement = useLoad<Statement>(month ? `/api/statements/${month}` : null, '账单明细');
  return (
    <Card
      title="月结账单"
      data-testid="monthly-statement"
      extra={
        months.data?.length ? (
          <Select
            aria-label="账单月份"
            style={{ width: 140 }}
            value={month}
            onChange={setMonth}
            options={months.data.map((m) => ({ value: m.month, label: `${m.month.replace('-', ' 年 ')} 月` }))}
          />
        ) : null
      }
    >
      <LoadState load={months}>
        {(list) =>
          list.length === 0 ? (
            <Empty description="暂无账单：后付费企业的订单按月汇总在这里" />
          ) : (
            <LoadState load={statement}>
              {(st) => (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Space size={48} wrap>
                    <Statistic title="账单金额" value={formatValue(st.amount, 'money')} data-testid="statement-amount" />
                    <Statistic title="订单数" value={st.orderCount} />
                    <Statistic title="其中待支付" value={formatValue(st.unpaidAmount, 'money')} />
                  </Space>
                  <Table<StatementOrder>
                    rowKey="orderNo"
                    size="small"
                    dataSource={st.orders}
                    pagination={st.orders.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
                    columns={[
                      { title: '订单号', dataIndex: 'orderNo', render: (v: string, r) => (r.id ? <Link to={PATHS.orderDetail(r.id)}>{v}</Link> : v) },
                      { title: '保险方案', dataIndex: 'productName' },
                      { title: '人数', dataIndex: 'personCount' },
                      { title: '订单金额', dataIndex: 'amount', render: (v: number) => formatValue(v, 'money') },
                      { title: '支付状态', dataIndex: 'payStatus', render: payStatusLabel },
                      { title: '创建时间', dataIndex: 'createdAt', render: (v: string) => formatValue(v, 'dateTime') },
                    ]}
                    summary={() => (
                      <Table.Summary.Row>
                        <Table.Summary.Cell index={0} colSpan={3}>合计</Table.Summary.Cell>
                        <Table.Summary.Cell index={3}>{formatValue(st.amount, 'money')}</Table.Summary.Cell>
                        <Table.Summary.Cell index={4} colSpan={2} />
                      </Table.Summary.Row>
                    )}
                  />
                </Space>
              )}
            </LoadState>
          )
        }
      </LoadState>
    </Card>
  );
}
