import type { RoutePage } from '../../schema/types';
import { getDetail, getForm, getTable } from '../../schema/registry';
import { LazyDetailPage as DetailPage, LazyFormPage as FormPage, LazyTablePage as TablePage } from './lazy';
import { CUSTOM_PAGES } from './custom/registry';

const PAGE_KINDS = { table: TablePage, form: FormPage, detail: DetailPage } as const;

/**
 * Starts loading the code a route's page renders, all at once: its custom component and the tables it
 * lists (OrderManage renders a table), instead of one after the other as each renders and suspends. A
 * custom page's forms and details are not preloaded: they open in drawers, or the component only reads
 * the schema (the workbench lists the detail `home` and renders no detail page; preloading it added
 * about 195 kB to the workbench's first load).
 */
export function preloadPage(page: RoutePage): void {
  const kinds = page.kind === 'custom' ? (page.schemas ?? []).map((s) => s.kind).filter((k) => k === 'table') : [page.kind];
  if (page.kind === 'custom') void CUSTOM_PAGES[page.component]?.preload();
  for (const k of new Set(kinds)) void PAGE_KINDS[k].preload();
}

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
