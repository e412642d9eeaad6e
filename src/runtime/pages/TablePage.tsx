import { Suspense, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
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


type Row = Record<string, unknown>;
interface ListResult {
  list: Row[];
  total: number;
}

/** A list page rendered from a table schema with the console table (ProTable + spec §9 rules): search form, pagination, sort, links, actions. */
export const TablePage = observer(function TablePage({ schema }: { schema: TableSchema }) {
  const { user } = useStores();
  const navigate = useNavigate();
  const actionRef = useRef<ActionType>();
  const lastQuery = useRef<Record<string, string | number>>({});
  const [dialogForm, setDialogForm] = useState<string>();
  const biz = user.currentBusiness;
  const ctx = { userType: biz?.userType, servicePacks: biz?.servicePacks ?? [] };
  const isBusinessPicker = schema.id === 'businesses';
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
        copyable: c.copyable,
        ellipsis: c.ellipsis,
        width: c.width,
        fixed: c.fixed,
        render: c.link
          ? (dom, record) => <Link to={fillPath(c.link!, record)}>{dom}</Link>
          : c.valueType === 'boolean'
            ? (_, record) => formatValue(record[c.dataIndex], 'boolean')
            : undefined,
      });
      if (c.search && isDateColumn(c) && c.valueType !== 'dateRange') {
        cols.push({ title: c.title, dataIndex: c.dataIndex, key: `${c.dataIndex}__range`, valueType: 'dateRange', hideInTable: true, search: { transform: (v) => ({ [c.dataIndex]: v }) } });
        cols[cols.length - 2].hideInSearch = true;
      }
    }
    const actions = (schema.rowActions ?? []).filter((a) => allowedFor(a.userType, ctx));
    if (actions.length > 0 || isBusinessPicker) {
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
          ...actions.map((a) => {
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
  }, [schema, ctx.userType, user.businessInfo.businessId]);

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
      pagination={schema.pageSize ? { defaultPageSize: schema.pageSize } : undefined}
      toolBarRender={() => [<Space key="tb">{toolbar}</Space>]}
      request={async (params, sort) => {
        const query = toQuery(schema.columns, params as Record<string, unknown>, sort as Record<string, 'ascend' | 'descend' | null>);
        lastQuery.current = query;
        try {
          if (isBusinessPicker) {
            const list = await api.get<Row[] | ListResult>(schema.api);
            const rows = Array.isArray(list) ? list : list.list;
            return { data: rows, total: rows.length, success: true };
          }
          const r = await api.get<ListResult & { totalIsEstimate?: boolean }>(schema.api, query);
          return { data: r.list, total: r.total, success: true, estimated: r.totalIsEstimate };
        } catch (e) {
          message.error(e instanceof ApiError ? e.message : '加载失败');
          return { data: [], total: 0, success: false };
        }
      }}
    />
    </>
  );
});
