import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Drawer } from 'antd';
import { getDetail, getTable } from '../../../schema/registry';
import { fillPath } from '../../../schema/routes';
import { LazyDetailPage as DetailPage, LazyTablePage as TablePage } from '../lazy';

/**
 * A list whose rows open their detail in a drawer (?id=…): for records the spec gives no detail
 * route of their own (insurance records, claims). The detail schema's :id is filled from the query.
 */
export function TableWithDetail({ table, detail, title, extra }: { table: string; detail: string; title: string; extra?: (id: string) => ReactNode }) {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const schema = getDetail(detail);
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete('id');
    setParams(next, { replace: true });
  };
  return (
    <>
      <TablePage schema={getTable(table)} />
      <Drawer open={Boolean(id)} onClose={close} width={880} title={title} destroyOnClose>
        {id && <DetailPage schema={{ ...schema, api: schema.api ? fillPath(schema.api, { id }) : undefined }} />}
        {id && extra?.(id)}
      </Drawer>
    </>
  );
}
