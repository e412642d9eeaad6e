import { Suspense, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button, Modal, Popconfirm, Space, Spin } from 'antd';
import { message } from '../feedback';
import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { ConsoleTable } from '../table';
import { useTableExport } from '../table/ExportButton';
import { observer } from 'mobx-react-lite';
import type { TableSchema } from '../../schema/types';
import { fillPath } from '../../schema/routes';
import { api, ApiError } from '../../services/request';
import { useStores } from '../context';
import { allowedFor } from '../access';
import { isDateColumn, proValueType, toQuery, toValueEnum } from '../tableColumns';
import { formatValue } from '../format';
import { getForm } from '../../schema/registry';
import { LazyFormPage as FormPage } from './lazy';
import { useTranslation } from '../i18n';


type Row = Record<string, unknown>;
interface ListResult {
  list: Row[];
  total: number;
}

/**
 * The list state a URL asks for (the list URL contract: filters named like the API's list query,
 * `?payStatus=unpaid&current=1&pageSize=30&sortField=createdAt&sortOrder=descend`, date ranges as
 * `createdAt=2024-01-01,2024-01-31`): search form values, page and sort, read once when the list mounts.
 * TODO(lead): reconcile with the nav helper's URL state (which also writes the state back to the URL).
 */
export function listStateFromUrl(schema: TableSchema, search: string) {
  const q = new URLSearchParams(search);
  const values: Record<string, unknown> = {};
  for (const c of schema.columns) {
    if (!c.search) continue;
    const v = q.get(c.dataIndex) ?? (isDateColumn(c) ? q.get(`${c.dataIndex}Range`) : null);
    if (v === null || v === '') continue;
    values[c.dataIndex] = isDateColumn(c) ? v.split(',').map((d) => d.trim()) : v;
  }
  const num = (k: string) => (Number.isInteger(Number(q.get(k))) && Number(q.get(k)) > 0 ? Number(q.get(k)) : undefined);
  const order = q.get('sortOrder');
  return {
    values,
    current: num('current'),
    pageSize: num('pageSize'),
    sort: q.get('sortField') && (order === 'ascend' || order === 'descend') ? { field: q.get('sortField')!, order: order as 'ascend' | 'descend' } : undefined,
  };
}

/** Monospace for lists of numbers (order numbers …), so neighbouring values never run together. */
const CODE_FONT = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/** A list value (order numbers, service packs): labels of its options, separated by 、; 无 when empty. */
function listCell(v: unknown, c: TableSchema['columns'][number]) {
  if (!Array.isArray(v)) return undefined;
  if (v.length === 0) return '无';
  const text = formatValue(v, c.valueType, c.options);
  return c.options ? text : <span style={CODE_FONT}>{text}</span>;
}


export interface TablePageProps {
  schema: TableSchema;
  /** Per-row actions a custom page decides (e.g. only the moves a status allows); `reload` refreshes the list. */
  rowActions?: (record: Row, reload: () => void) => ReactNode[];
  /** Cell renderers by column (dataIndex), e.g. a status as a coloured tag. */
  cellRender?: Record<string, (value: unknown, record: Row) => ReactNode>;
  /** What the table shows when the list is empty. */
  emptyText?: ReactNode;
}

/** A list page rendered from a table schema with the console table (ProTable + spec §9 rules): search form, pagination, sort, links, actions. */
export const TablePage = observer(function TablePage({ schema, rowActions, cellRender, emptyText }: TablePageProps) {
  const { user } = useStores();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const actionRef = useRef<ActionType>();
  const lastQuery = useRef<Record<string, string | number>>({});
  const [dialogForm, setDialogForm] = useState<string>();
  const biz = user.currentBusiness;
  const ctx = { userType: biz?.userType, servicePacks: biz?.servicePacks ?? [] };
  const isBusinessPicker = schema.id === 'businesses';
  const location = useLocation();
  const [fromUrl] = useState(() => listStateFromUrl(schema, location.search));
  // .xlsx/.csv export of the filtered list with its shown columns (src/runtime/table/ExportButton.tsx).
  const exporter = useTableExport(schema, () => lastQuery.current);

  const columns = useMemo(() => {
    const cols: ProColumns<Row>[] = [];
    for (const c of schema.columns) {
      const valueEnum = toValueEnum(c.options);
      cols.push({
        title: c.title,
        dataIndex: c.dataIndex,
        key: c.dataIndex,
        valueType: (c.options ? 'select' : proValueType(c.valueType)) as ProColumns<Row>['valueType'],
        valueEnum,
        hideInTable: c.hideInTable || c.valueType === 'dateRange',
        hideInSearch: !c.search,
        sorter: c.sorter,
        defaultSortOrder: fromUrl.sort?.field === c.dataIndex ? fromUrl.sort.order : undefined,
        copyable: c.copyable,
        ellipsis: c.ellipsis,
        width: c.width,
        fixed: c.fixed,
        render: cellRender?.[c.dataIndex]
          ? (_, record) => cellRender[c.dataIndex](record[c.dataIndex], record)
          : c.link
          ? (dom, record) => <Link to={fillPath(c.link!, record)}>{dom}</Link>
          : c.valueType === 'boolean'
            ? (_, record) => formatValue(record[c.dataIndex], 'boolean')
            : c.valueType === 'money'
              ? (_, record) => formatValue(record[c.dataIndex], 'money') // always ¥, whatever the language of antd
              : (dom, record) => listCell(record[c.dataIndex], c) ?? dom,
      });
      if (c.search && isDateColumn(c) && c.valueType !== 'dateRange') {
        cols.push({ title: c.title, dataIndex: c.dataIndex, key: `${c.dataIndex}__range`, valueType: 'dateRange', hideInTable: true, search: { transform: (v) => ({ [c.dataIndex]: v }) } });
        cols[cols.length - 2].hideInSearch = true;
      }
    }
    const actions = (schema.rowActions ?? []).filter((a) => allowedFor(a.userType, ctx));
    if (actions.length > 0 || isBusinessPicker || rowActions) {
      cols.push({
        title: '操作',
        key: '__actions',
        valueType: 'option',
        fixed: 'right',
        render: (_, record) => [
          ...(isBusinessPicker
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
          ...actions.filter((a) => !a.when || Object.entries(a.when).every(([k, v]) => String(record[k]) === v)).map((a) => {
            if (a.to) return <Link key={a.label} to={fillPath(a.to, record)}>{a.label}</Link>;
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
  }, [schema, ctx.userType, user.businessInfo.businessId, rowActions, cellRender]);

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
      key={user.businessInfo.businessId}
      headerTitle={schema.title}
      rowKey={schema.rowKey}
      actionRef={actionRef}
      columns={columns}
      columnsState={exporter.columnsState}
      search={schema.columns.some((c) => c.search) ? { labelWidth: 'auto' } : false}
      // Page sizes 30/50/100, quick jumper and the spec's labels come from ConsoleTable (spec §9).
      pagination={{ defaultPageSize: fromUrl.pageSize ?? schema.pageSize, defaultCurrent: fromUrl.current }}
      form={{ initialValues: fromUrl.values }}
      toolBarRender={() => [<Space key="tb">{toolbar}</Space>]}
      locale={emptyText ? { emptyText } : undefined}
      request={async (params, sort) => {
        const query = toQuery(schema.columns, params as Record<string, unknown>, sort as Record<string, 'ascend' | 'descend' | null>);
        lastQuery.current = query;
        try {
          if (isBusinessPicker) {
            const list = await api.get<Row[] | ListResult>(schema.api);
            const rows = Array.isArray(list) ? list : list.list;
            return { data: rows, total: rows.length, success: true };
          }
          const r = await api.get<ListResult & { estimated?: boolean }>(schema.api, query);
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
