import { Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Drawer, Empty, Popconfirm, Space, Spin } from 'antd';
import { getDetail, getForm, getTable } from '../../../schema/registry';
import { fillPath } from '../../../schema/routes';
import type { FormSchema } from '../../../schema/types';
import { AUTO_INSURE_LABELS, AutoInsureStatus, availableActions, type AutoInsureAction } from '../../../shared/auto-insure';
import { api, ApiError } from '../../../services/request';
import { message } from '../../feedback';
import { LazyDetailPage as DetailPage, LazyFormPage as FormPage, LazyTablePage as TablePage } from '../lazy';
import { UrlTabs } from './SchemaTabs';
import { StatusTag } from './StatusTag';
import { CUSTOM_PAGE_LISTS } from './pageData';
import { AttendanceResult, type AttendanceOutcome } from './AttendanceResult';


type Row = Record<string, unknown>;
type Saved = Row & { autoStatus?: string; missing?: string[] };

const EDIT_LABEL = (status: AutoInsureStatus) => (status === AutoInsureStatus.InfoIncomplete ? '完善信息' : '修改信息');
/** The widest row: an edit and a start/stop (the 操作 column is sized for them, so they never wrap). */
const ACTION_LABELS = ['修改信息', '停止自动投保'] as const;

/** The edit form for one person: the entity's rules; the ID number (listed masked) is only sent when re-typed. */
function infoForm(base: FormSchema, record: Row): FormSchema {
  const status = Number(record.autoStatus) as AutoInsureStatus;
  return {
    ...base,
    title: EDIT_LABEL(status),
    submit: { ...base.submit, api: fillPath(base.submit.api, { id: String(record.id) }) },
    fields: base.fields.map((f) =>
      f.name === 'idCard'
        ? { ...f, required: false, rule: f.rule && { ...f.rule, required: false }, placeholder: `${String(record.idCard ?? '')}（不修改请留空）` }
        : f,
    ),
  };
}

/**
 * The form's initial values: what the person holds now, for every input of the form (the entity's
 * writable fields); the ID number is listed masked, so it is left empty and only sent when re-typed.
 */
function initialValuesOf(schema: FormSchema, record: Row): Row {
  return Object.fromEntries(
    schema.fields.filter((f) => f.name !== 'idCard' && record[f.name] !== null && record[f.name] !== '' && record[f.name] !== undefined).map((f) => [f.name, record[f.name]]),
  );
}

/** A person's detail (?id=) in a drawer, from the insured-person detail schema. */
function PersonDetail() {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const schema = getDetail('insured-person');
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete('id');
    setParams(next, { replace: true });
  };
  return (
    <Drawer open={Boolean(id)} onClose={close} width={880} title={schema.title} destroyOnClose>
      {id && (
        <Suspense fallback={<Spin />}>
          <DetailPage schema={{ ...schema, api: schema.api ? fillPath(schema.api, { id }) : undefined }} />
        </Suspense>
      )}
    </Drawer>
  );
}

/** 自动投保中 persons are insured by each attendance submission; the others are listed with their reason. */
function AutoInsurePersons() {
  const table = getTable(CUSTOM_PAGE_LISTS.InsurePersonManage);
  const baseForm = getForm('insured-person-info');
  const statusOptions = table.columns.find((c) => c.dataIndex === 'autoStatus')?.options;
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Row>();
  const reloadRef = useRef<() => void>(() => undefined);

  const move = useCallback(async (record: Row, verb: 'start' | 'stop', reload: () => void) => {
    try {
      await api.post(`/api/insured-persons/${String(record.id)}/${verb}`);
      message.success(verb === 'start' ? `已为 ${String(record.name)} 开启自动投保` : `已停止 ${String(record.name)} 的自动投保`);
      reload();
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '操作失败，请稍后重试');
    }
  }, []);

  const rowActions = useCallback(
    (record: Row, reload: () => void) => {
      const status = Number(record.autoStatus) as AutoInsureStatus;
      const allowed: AutoInsureAction[] = record.autoStatus === null || record.autoStatus === undefined ? [] : availableActions(status);
      return allowed.map((a) => {
        if (a === 'edit') {
          return (
            <a key="edit" onClick={() => { reloadRef.current = reload; setEditing(record); }}>
              {EDIT_LABEL(status)}
            </a>
          );
        }
        if (a === 'start') {
          return (
            <Popconfirm key="start" title={`为 ${String(record.name)} 开启自动投保？之后每次考勤投保都会为其投保。`} okText="开启" cancelText="取消" onConfirm={() => move(record, 'start', reload)}>
              <a>开启自动投保</a>
            </Popconfirm>
          );
        }
        return (
          <Popconfirm key={a} title={`停止 ${String(record.name)} 的自动投保？之后的考勤投保不再为其投保。`} okText="停止" cancelText="取消" onConfirm={() => move(record, 'stop', reload)}>
            <a>停止自动投保</a>
          </Popconfirm>
        );
      });
    },
    [move],
  );

  // One form per opened person (FormPage builds its form from the schema and initial values).
  const form = useMemo(() => {
    if (!editing) return undefined;
    const schema = infoForm(baseForm, editing);
    return { schema, initialValues: initialValuesOf(schema, editing) };
  }, [editing, baseForm]);
  const cellRender = useMemo(() => ({ autoStatus: (v: unknown) => <StatusTag value={v} options={statusOptions} /> }), [statusOptions]);

  const emptyText = (
    <Empty data-testid="persons-empty" data-auto-status={AutoInsureStatus.Empty} description="暂无参保人员（名单投保或考勤投保后，人员会出现在这里）">
      <Space>
        <Button type="primary" onClick={() => navigate('?tab=attendance')}>
          考勤投保
        </Button>
      </Space>
    </Empty>
  );

  const saved = (result: unknown) => {
    const r = result as Saved;
    const label = AUTO_INSURE_LABELS[Number(r.autoStatus) as AutoInsureStatus] ?? '';
    if (r.missing?.length) message.warning(`信息已保存，仍需完善：${r.missing.join('、')}`);
    else message.success(`信息已保存，当前状态：${label}`);
    setEditing(undefined);
    reloadRef.current();
  };

  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="考勤投保只为「自动投保中」的人员投保；信息待完善、投保信息有误或已停止自动投保的人员不会被投保，会在投保结果中逐行列出原因。"
      />
      <TablePage schema={table} rowActions={rowActions} rowActionLabels={ACTION_LABELS} cellRender={cellRender} emptyText={emptyText} />
      <PersonDetail />
      <Drawer open={Boolean(editing)} onClose={() => setEditing(undefined)} width={520} title={editing ? `${EDIT_LABEL(Number(editing.autoStatus))}：${String(editing.name)}` : undefined} destroyOnClose>
        {form && (
          <Suspense fallback={<Spin />}>
            <FormPage bare schema={form.schema} initialValues={form.initialValues} onSubmitted={saved} />
          </Suspense>
        )}
      </Drawer>
    </>
  );
}

/** The attendance insurance form; after a submission, its outcome in place of the form. */
function AttendanceInsure() {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<AttendanceOutcome>();
  const statusOptions = getTable(CUSTOM_PAGE_LISTS.InsurePersonManage).columns.find((c) => c.dataIndex === 'autoStatus')?.options;
  if (outcome) {
    return <AttendanceResult outcome={outcome} statusOptions={statusOptions} onFixPersons={() => navigate('?tab=persons')} onAgain={() => setOutcome(undefined)} />;
  }
  return (
    <FormPage
      schema={getForm('insure-attendance')}
      onSubmitted={(r) => {
        const o = r as AttendanceOutcome;
        if (o.skipped.length) message.warning(`投保已提交：${o.insured} 人已投保，${o.skipped.length} 人未投保`);
        else message.success(`投保已提交：${o.insured} 人已投保`);
        setOutcome(o);
      }}
    />
  );
}

/** 参保人员管理 (attendance insurance): the insured persons with their automatic-insurance status, and the attendance insurance form (?tab=attendance). */
export function InsurePersonManage() {
  return (
    <UrlTabs
      items={[
        { key: 'persons', label: '参保人员', children: <AutoInsurePersons /> },
        { key: 'attendance', label: '考勤投保', children: <AttendanceInsure /> },
      ]}
    />
  );
}
