import { Link, useParams } from 'react-router-dom';
import { Button, Card, Descriptions, Space, Table } from 'antd';
import { getTable } from '../../../schema/registry';
import { formatValue } from '../../format';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';
import { PATHS } from './paths';
import { DetailNotFound } from '../DetailNotFound';
import { yuanToCents } from '../../../shared/money';

interface Invoice {
  id: number;
  invoiceNo: string;
  title: string;
  taxNo: string;
  amount: number;
  type: string;
  status: string;
  email?: string;
  createdAt: string;
  orderNos: string[];
}

interface Refund {
  id: number;
  refundNo: string;
  invoiceNo: string;
  amount: number;
  reason: string;
  status: string;
  createdAt: string;
}

/** Label of an enum value as the list schema names it. */
function label(table: string, dataIndex: string, value: string): string {
  const col = getTable(table).columns.find((c) => c.dataIndex === dataIndex);
  return formatValue(value, 'enum', col?.options);
}

/** Links an order number to its detail page (the order's id comes from GET /api/orders?orderNo=). */
function OrderLink({ orderNo }: { orderNo: string }) {
  const load = useLoad<{ list: Array<{ id: number; orderNo: string }> }>(`/api/orders?orderNo=${encodeURIComponent(orderNo)}&current=1&pageSize=1`, '订单');
  const hit = load.data?.list.find((o) => o.orderNo === orderNo);
  return hit ? <Link to={PATHS.orderDetail(hit.id)}>{orderNo}</Link> : <span>{orderNo}</span>;
}

/**
 * 申请退票 is offered as the gateway accepts it (src/server/domain/refund.ts): the invoice is issued and
 * its refunds not rejected do not yet cover its amount. Unknown until the refunds have loaded.
 */
function refundable(inv: Invoice, refunds: Refund[] | undefined): boolean {
  if (inv.status !== 'issued' || !refunds) return false;
  const refundedCents = refunds.filter((r) => r.status !== 'rejected').reduce((s, r) => s + yuanToCents(r.amount), 0);
  return refundedCents < yuanToCents(inv.amount);
}

/** 发票详情: the invoice, the orders it covers (linked) and its refund applications. */
export function InvoiceDetail() {
  const { id = '' } = useParams();
  const invoice = useLoad<Invoice>(`/api/invoices/${encodeURIComponent(id)}`, '发票信息');
  const no = invoice.data?.invoiceNo;
  const refunds = useLoad<{ list: Refund[]; total: number }>(no ? `/api/invoice-refunds?invoiceNo=${encodeURIComponent(no)}&current=1&pageSize=100` : null, '退票申请');
  if (invoice.notFound) return <DetailNotFound message={invoice.notFound} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <LoadState load={invoice}>
          {(inv) => (
            <Descriptions
              title="发票信息"
              bordered
              column={{ xs: 1, sm: 2, lg: 3 }}
              extra={
                refundable(inv, refunds.data?.list) && (
                  <Link to={PATHS.applyRefund(inv.id)}>
                    <Button type="primary">申请退票</Button>
                  </Link>
                )
              }
            >
              <Descriptions.Item label="发票号">{inv.invoiceNo}</Descriptions.Item>
              <Descriptions.Item label="发票抬头">{inv.title}</Descriptions.Item>
              <Descriptions.Item label="税号">{inv.taxNo}</Descriptions.Item>
              <Descriptions.Item label="金额">{formatValue(inv.amount, 'money')}</Descriptions.Item>
              <Descriptions.Item label="发票类型">{label('invoices', 'type', inv.type)}</Descriptions.Item>
              <Descriptions.Item label="状态">{label('invoices', 'status', inv.status)}</Descriptions.Item>
              <Descriptions.Item label="接收邮箱">{inv.email || '-'}</Descriptions.Item>
              <Descriptions.Item label="申请时间">{formatValue(inv.createdAt, 'dateTime')}</Descriptions.Item>
            </Descriptions>
          )}
        </LoadState>
      </Card>
      {invoice.data && (
        <Card title="开票订单">
          <Space wrap split="、" data-testid="invoice-orders" style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}>
            {invoice.data.orderNos.length ? invoice.data.orderNos.map((o) => <OrderLink key={o} orderNo={o} />) : '无'}
          </Space>
        </Card>
      )}
      {invoice.data && (
        <Card title="退票申请">
          <LoadState load={refunds}>
            {(r) => (
              <Table<Refund>
                rowKey="id"
                dataSource={r.list}
                pagination={false}
                locale={{ emptyText: <span style={{ color: 'rgba(0, 0, 0, 0.65)' }}>暂无退票申请</span> }}
                columns={[
                  { title: '退票申请号', dataIndex: 'refundNo' },
                  { title: '退票金额', dataIndex: 'amount', render: (v: number) => formatValue(v, 'money') },
                  { title: '退票原因', dataIndex: 'reason' },
                  { title: '状态', dataIndex: 'status', render: (v: string) => label('invoice-refunds', 'status', v) },
                  { title: '申请时间', dataIndex: 'createdAt', render: (v: string) => formatValue(v, 'dateTime') },
                ]}
              />
            )}
          </LoadState>
        </Card>
      )}
    </Space>
  );
}
