import { lazy } from 'react';
import type { RoutePage } from '../../schema/types';
import { getDetail, getForm, getTable } from '../../schema/registry';

// Each page kind is its own chunk, loaded the first time a route of that kind opens.
const TablePage = lazy(() => import('./TablePage').then((m) => ({ default: m.TablePage })));
const FormPage = lazy(() => import('./FormPage').then((m) => ({ default: m.FormPage })));
const DetailPage = lazy(() => import('./DetailPage').then((m) => ({ default: m.DetailPage })));

/** Renders the table/form/detail schema a route names. */
export function SchemaPage({ page }: { page: RoutePage }) {
  switch (page.kind) {
    case 'table':
      return <TablePage schema={getTable(page.schema)} />;
    case 'form':
      return <FormPage schema={getForm(page.schema)} />;
    case 'detail':
      return <DetailPage schema={getDetail(page.schema)} />;
  }
}
