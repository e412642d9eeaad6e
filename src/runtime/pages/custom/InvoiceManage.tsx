import { getTable } from '../../../schema/registry';
import { LazyTablePage as TablePage } from '../lazy';
import { UrlTabs } from './SchemaTabs';

/** 发票管理: invoices and invoice refund applications as two tabs (?tab=refunds). */
export function InvoiceManage() {
  return (
    <UrlTabs
      items={[
        { key: 'invoices', label: '发票', children: <TablePage schema={getTable('invoices')} /> },
        { key: 'refunds', label: '退票申请', children: <TablePage schema={getTable('invoice-refunds')} /> },
      ]}
    />
  );
}
