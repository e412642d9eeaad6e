import { Link } from 'react-router-dom';
import { getTable } from '../../../schema/registry';
import { LazyTablePage as TablePage } from '../lazy';
import { UrlTabs } from './SchemaTabs';
import { TableWithDetail } from './TableWithDetail';
import { useLoad } from './useLoad';
import { PATHS } from './paths';

/** The invoice a refund application is for, linked to its detail page (found by its number). */
function RefundInvoiceLink({ refundId }: { refundId: string }) {
  const refund = useLoad<{ invoiceNo: string }>(`/api/invoice-refunds/${encodeURIComponent(refundId)}`, '退票申请');
  const no = refund.data?.invoiceNo;
  const invoice = useLoad<{ list: Array<{ id: number; invoiceNo: string }> }>(
    no ? `/api/invoices?invoiceNo=${encodeURIComponent(no)}&current=1&pageSize=1` : null,
    '发票',
  );
  const hit = invoice.data?.list.find((i) => i.invoiceNo === no);
  if (!hit) return null;
  return (
    <div style={{ marginTop: 16 }}>
      查看所退发票：
      <Link to={PATHS.invoiceDetail(hit.id)}>{hit.invoiceNo}</Link>
    </div>
  );
}

/** 发票管理: invoices (each linked to its detail) and invoice refund applications (detail in a drawer, ?id=) as two tabs (?tab=refunds). */
export function InvoiceManage() {
  return (
    <UrlTabs
      items={[
        { key: 'invoices', label: '发票', children: <TablePage schema={getTable('invoices')} /> },
        {
          key: 'refunds',
          label: '退票申请',
          children: <TableWithDetail table="invoice-refunds" detail="invoice-refund" title="退票申请详情" extra={(id) => <RefundInvoiceLink refundId={id} />} />,
        },
      ]}
    />
  );
}
