import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Modal, Popconfirm, Space, Spin } from 'antd';
import { message } from '../feedback';
import type { ListColumn } from '../table/listColumn';
import { ConsoleTable, actionColumnWidth, suggestedColumnWidth, type TableAction } from '../table';
import { useTableExport } from '../table/ExportButton';
import { observer } from 'mobx-react-lite';
import type { TableSchema } from '../../schema/types';
import { fillPath } from '../../schema/routes';
import { matchesWhen } from '../../schema/when';
import { api, ApiError } from '../../services/request';
import { useStores } from '../context';
import { allowedFor } from '../access';
import { isDateColumn, listValueType, toQuery, toValueEnum } from '../tableColumns';
import { getForm } from '../../schema/registry';
import { LazyFormPage as FormPage } from './lazy';
import { useListUrlState } from '../table/useListUrlState';
import { ListLink } from '../table/ListLink';
import { schemaCellRender } from '../table/cells';
import { rangeFieldName } from '../table/urlState';
import { routePreloads } from '../nav/preloadRoute';
import { prefetchWhenIdle } from './prefetch';
import { isBusinessPicker } from '../table/firstLoad';

/** How long after its rows are shown a list loads the code of the pages its rows link to (prefetchWhenIdle). */
const LINKED_AFTER_MS = 300;

type Row = Record<string, unknown>;
interface ListResult {
  list: Row[];
  total: number;
}

/** Options of a search select from the gateway (e.g. the plans on sale): [{ value, … }]. */
const optionsRequest = (path: string) => async () => {
  const list = await api.get<Array<{ value: string }>>(path);
  // The stored value is what the filter matches and the cells show (a plan's name, not its price label).
  return list.map((o) => ({ value: o.value, label: o.value }));
};

export interface TablePageProps {
  schema: TableSchema;
  /** Per-row actions a custom page decides (e.g. only the moves a status allows); `reload` refreshes the list. */
  rowActions?: (record: Row, reload: () => void) => ReactNode[];
  /** The labels of the widest set of actions rowActions can show on one row: the 操作 column is sized for them. */
  rowActionLabels?: readonly string[];
  /** Cell renderers by column (dataIndex), e.g. a status as a coloured tag. */
  cellRender?: Record<string, (value: unknown, record: Row) => ReactNode>;
  /** What the table shows when the list is empty. */
  emptyText?: ReactNode;
}

/** A list page rendered from a table schema with the console table (ConsoleTable, spec §9 rules): search form, pagination, sort, links, actions. */
export const TablePage = observer(function TablePage({ schema, rowActions, rowActionLabels, cellRender, emptyText }: TablePageProps) {
  const { user } = useStores();
  const navigate = useNavigate();
  const actionRef = useRef<TableAction>();
  const lastQuery = useRef<Record<string, string | number>>({});
  const [dialogForm, setDialogForm] = useState<string>();
  const biz = user.currentBusiness;
  const ctx = { userType: biz?.userType, servicePacks: biz?.servicePacks ?? [] };
  const businessPicker = isBusinessPicker(schema);
  // Page, page size, filters and sort live in the URL (?status=…&current=2&pageSize=30&sortField=…).
  const list = useListUrlState(schema);
  const initial = list.initial;
  // .xlsx/.csv export of the filtered list with its shown columns (src/runtime/table/ExportButton.tsx).
  const exporter = useTableExport(schema, () => lastQuery.current);
  // Once the first rows are shown, the code of the pages a row links to (its detail) loads while the user
  // reads them, so a click waits only for the record. Not state: it must not render the table again.
  // A row's pages are small (an order's detail: two chunks, 2.3 kB), so they load as soon as the browser
  // is idle after LINKED_AFTER_MS, before a user has found the row to open.
  const prefetch = useRef<() => void>();
  const prefetchLinked = () => {
    if (prefetch.current) return;
    prefetch.current = prefetchWhenIdle(routePreloads([...schema.columns.map((c) => c.link), ...(schema.rowActions ?? []).map((a) => a.to)]), LINKED_AFTER_MS);
  };
  useEffect(() => () => prefetch.current?.(), []);

  const columns = useMemo(() => {
    const cols: ListColumn<Row>[] = [];
    for (const c of schema.columns) {
      const valueType = c.options || c.optionsApi ? 'select' : listValueType(c.valueType);
      const valueEnum = toValueEnum(c.options);
      const inTable = !(c.hideInTable || c.valueType === 'dateRange');
      // A column shown in the table has its cells rendered by this page (schemaCellRender); its filter is a
      // column of its own, hidden in the table, with the value type (the search form's input).
      if (inTable) {
        cols.push({
          title: c.title,
          dataIndex: c.dataIndex,
          key: c.dataIndex,
          hideInSearch: true,
          sorter: c.sorter,
          // copyable is drawn by the page (CopyButton).
          ellipsis: c.ellipsis,
          width: c.width ?? suggestedColumnWidth(c),
          fixed: c.fixed,
          defaultSortOrder: c.sorter && initial.sortField === c.dataIndex ? initial.sortOrder : undefined,
          render: schemaCellRender(c, cellRender?.[c.dataIndex]),
        });
      }
      if (!c.search) continue;
      if (isDateColumn(c) && c.valueType !== 'dateRange') {
        cols.push({ title: c.title, dataIndex: c.dataIndex, key: rangeFieldName(c.dataIndex), valueType: 'dateRange', hideInTable: true, search: { transform: (v) => ({ [c.dataIndex]: v }) } });
      } else {
        cols.push({
          title: c.title,
          dataIndex: c.dataIndex,
          // The search form names a field by its column's key, else its dataIndex: the table's column has the key.
          ...(inTable ? {} : { key: c.dataIndex }),
          valueType,
          valueEnum,
          ...(c.optionsApi ? { request: optionsRequest(c.optionsApi) } : {}),
          hideInTable: true,
        });
      }
    }
    const actions = (schema.rowActions ?? []).filter((a) => allowedFor(a.userType, ctx));
    if (actions.length > 0 || businessPicker || rowActions) {
      cols.push({
        title: '操作',
        key: '__actions',
        valueType: 'option',
        fixed: 'right',
        width: actionColumnWidth([...(businessPicker ? ['当前企业'] : []), ...actions.map((a) => a.label), ...(rowActions ? rowActionLabels ?? [] : [])]),
        render: (_, record) => [
          ...(businessPicker
            ? [
                <a
                  key="enter"
                  onClick={() => {
                    user.selectBusiness(String(record.businessId));
                    message.success(`已进入 ${String(record.businessName)}`);
                    navigate('/');
                  }}
                >
                  {user.businessInfo.businessId === record.businessId ? '当前企业' : '进入'}
                </a>,
              ]
            : []),
          ...(rowActions ? rowActions(record, () => actionRef.current?.reload()) : []),
          ...actions.filter((a) => matchesWhen(a.when, record)).map((a) => {
            if (a.to) return <ListLink key={a.label} to={fillPath(a.to, record)}>{a.label}</ListLink>;
            const [method, path] = (a.api ?? '').split(' ');
            const run = async () => {
              try {
                await (method === 'DELETE' ? api.del(fillPath(path, record)) : api.post(fillPath(path, record)));
                message.success(`${a.label}成功`);
                actionRef.current?.reload();
              } catch (e) {
                message.error(e instanceof ApiError ? e.message : `${a.label}失败`);
              }
            };
            return a.confirm ? (
              <Popconfirm key={a.label} title={a.confirm} onConfirm={run}>
                <a>{a.label}</a>
              </Popconfirm>
            ) : (
              <a key={a.label} onClick={run}>{a.label}</a>
            );
          }),
        ],
      });
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema, ctx.userType, user.businessInfo.businessId, initial, rowActions, rowActionLabels, cellRender]);

  const toolbar = (schema.toolbar ?? [])
    .filter((t) => allowedFor(t.userType, ctx))
    .map((t) =>
      t.form ? (
        <Button key={t.label} type={t.primary ? 'primary' : 'default'} onClick={() => setDialogForm(t.form)}>
          {t.label}
        </Button>
      ) : t.href ? (
        <Button key={t.label} type={t.primary ? 'primary' : 'default'} href={t.href} target="_blank">
          {t.label}
        </Button>
      ) : (
        <Button key={t.label} type={t.primary ? 'primary' : 'default'} onClick={() => navigate(t.to ?? '/')}>
          {t.label}
        </Button>
      ),
    );
  if (exporter.button) toolbar.push(exporter.button);

  const dialogSchema = dialogForm ? getForm(dialogForm) : undefined;
  return (
    <>
    {dialogSchema && (
      <Modal open title={dialogSchema.title} footer={null} destroyOnClose onCancel={() => setDialogForm(undefined)}>
        <Suspense fallback={<Spin />}>
          <FormPage
            schema={dialogSchema}
            bare
            onSubmitted={() => {
              message.success(dialogSchema.successMessage ?? '提交成功');
              setDialogForm(undefined);
              actionRef.current?.reload();
            }}
          />
        </Suspense>
      </Modal>
    )}
    <ConsoleTable<Row>
      key={`${user.businessInfo.businessId}|${list.mountKey}`}
      headerTitle={schema.title}
      rowKey={schema.rowKey}
      actionRef={actionRef}
      columns={columns}
      columnsState={exporter.columnsState}
      // A list opened with filters in its URL shows the whole search form, so every filter in use is visible.
      search={schema.columns.some((c) => c.search) ? { labelWidth: 'auto', defaultCollapsed: Object.keys(initial.filters).length === 0 } : false}
      form={{ initialValues: list.formInitialValues }}
      // Page sizes 30/50/100, quick jumper and the spec's labels come from ConsoleTable (spec §9).
      pagination={{ defaultPageSize: initial.pageSize, defaultCurrent: initial.current }}
      toolBarRender={() => [<Space key="tb">{toolbar}</Space>]}
      locale={emptyText ? { emptyText } : undefined}
      request={async (params, sort) => {
        const query = toQuery(schema.columns, params as Record<string, unknown>, sort as Record<string, 'ascend' | 'descend' | null>);
        lastQuery.current = query;
        list.write(params as Record<string, unknown>, sort as Record<string, 'ascend' | 'descend' | null>);
        try {
          if (businessPicker) {
            const list = await api.get<Row[] | ListResult>(schema.api);
            const rows = Array.isArray(list) ? list : list.list;
            return { data: rows, total: rows.length, success: true };
          }
          const r = await api.get<ListResult & { estimated?: boolean }>(schema.api, query);
          prefetchLinked();
          return { data: r.list, total: r.total, success: true, estimated: r.estimated === true };
        } catch (e) {
          message.error(e instanceof ApiError ? e.message : '加载失败');
          return { data: [], total: 0, success: false };
        }
      }}
    />
    </>
  );
});
