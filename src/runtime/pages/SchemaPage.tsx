import type { RoutePage } from '../../schema/types';
import { getDetail, getForm, getTable } from '../../schema/registry';
import { LazyDetailPage as DetailPage, LazyFormPage as FormPage, LazyTablePage as TablePage } from './lazy';
import { CUSTOM_PAGES } from './custom/registry';

/** Renders the table/form/detail schema a route names, or its custom page component. */
export function SchemaPage({ page }: { page: RoutePage }) {
  switch (page.kind) {
    case 'table':
      return <TablePage schema={getTable(page.schema)} />;
    case 'form':
      return <FormPage schema={getForm(page.schema)} />;
    case 'detail':
      return <DetailPage schema={getDetail(page.schema)} />;
    case 'custom': {
      const C = CUSTOM_PAGES[page.component];
      if (!C) throw new Error(`Unknown custom page "${page.component}"`);
      return <C />;
    }
  }
}
