/**
 * 上传投保信息: choose plan and start date, download the template, upload a roster (.xlsx/.xls/.csv)
 * parsed by the gateway in the background, fix rows in the virtualized editor (or type them in),
 * then confirm with the cost breakdown. Nothing is insured before the confirmation.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Card, DatePicker, Form, Progress, Select, Space, Tabs, Tooltip, Typography, Upload } from 'antd';
import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { getForm } from '../../../schema/registry';
import { api, ApiError, newIdempotencyKey } from '../../../services/request';
import { useStores } from '../../context';
import { message } from '../../feedback';
import { formatMoney } from '../../format';
import { downloadWithAuth } from './download';
import { BASE, getConfig, getQuote, type QuoteView, type UploadConfig, type UploadView } from './upload/api';
import { ConfirmDialog } from './upload/ConfirmDialog';
import { RosterEditor } from './upload/RosterEditor';
import { RosterStore, type RowStatus } from './upload/rosterStore';
import { ConfirmJobError, useConfirmRoster } from './upload/useConfirmRoster';
import { ACCEPT, useRosterUpload } from './upload/useRosterUpload';

const HISTORY = '/main/online-insurance/form-insurance/query-history-form';

function useRosterStore(): RosterStore {
  const form = getForm('insure-roster');
  return useMemo(() => {
    const rows = form.fields.find((f) => f.type === 'rows');
    return new RosterStore((rows?.columns ?? []).map((c) => ({ key: c.name, title: c.title, rule: c.rule })));
  }, [form]);
}

function parsingText(status: UploadView | undefined): string {
  if (status?.phase === 'queued') return '排队等待解析（同一企业的文件依次解析）…';
  if (!status || status.phase === 'reading') return '正在读取文件…';
  return `正在校验：已处理 ${status.rowsDone.toLocaleString()} / ${status.rowsTotal.toLocaleString()} 行（${status.percent}%）`;
}

function ParseStatus({ state }: { state: ReturnType<typeof useRosterUpload>['state'] }) {
  const { phase, uploadPercent, status, error, rowsLoaded } = state;
  if (phase === 'uploading') return <Progress data-testid="upload-progress" percent={uploadPercent} status="active" format={(p) => `上传 ${p}%`} />;
  if (phase === 'parsing' || phase === 'loading') {
    return (
      <div data-testid="parse-progress">
        <Progress percent={phase === 'loading' ? 100 : (status?.percent ?? 0)} status="active" />
        <Typography.Text type="secondary">{phase === 'loading' ? '正在载入预览…' : parsingText(status)}</Typography.Text>
      </div>
    );
  }
  if (phase === 'ready' && rowsLoaded && rowsLoaded.done < rowsLoaded.total) {
    return (
      <div data-testid="rows-loading">
        <Progress percent={Math.floor((rowsLoaded.done * 100) / rowsLoaded.total)} status="active" />
        <Typography.Text type="secondary">{`正在载入名单：${rowsLoaded.done.toLocaleString()} / ${rowsLoaded.total.toLocaleString()} 行`}</Typography.Text>
      </div>
    );
  }
  if (phase === 'failed') return <Alert type="error" showIcon message={error} data-testid="upload-error" />;
  return null;
}

/** Tabs with live counts: the only part of the page that re-renders when a count changes. */
function RosterTabs({ store, tab, onChange }: { store: RosterStore; tab: 'all' | RowStatus; onChange(t: 'all' | RowStatus): void }) {
  const counts = useSyncExternalStore(store.subscribeCounts, store.getCounts);
  const items = [
    { key: 'all', label: `全部 ${counts.total}` },
    { key: 'valid', label: `有效 ${counts.valid}` },
    { key: 'error', label: `有误 ${counts.errors}` },
    { key: 'duplicate', label: `重复 ${counts.duplicates}` },
  ];
  return <Tabs activeKey={tab} onChange={(k) => onChange(k as 'all' | RowStatus)} items={items} />;
}

function ConfirmBar({ store, busy, onConfirm }: { store: RosterStore; busy: boolean; onConfirm(): void }) {
  const counts = useSyncExternalStore(store.subscribeCounts, store.getCounts);
  return (
    <Space style={{ marginTop: 16 }}>
      <Button type="primary" size="large" disabled={busy || counts.valid === 0} onClick={onConfirm}>
        确认投保（{counts.valid} 人）
      </Button>
      {counts.total > counts.valid ? <Typography.Text type="warning">有误或重复的 {counts.total - counts.valid} 行不会投保</Typography.Text> : null}
    </Space>
  );
}

export function UploadInsurance() {
  const form = getForm('insure-roster');
  const store = useRosterStore();
  const navigate = useNavigate();
  const { user } = useStores();
  const [config, setConfig] = useState<UploadConfig>();
  const [plans, setPlans] = useState<Array<{ value: string; label: string }>>([]);
  const [planName, setPlanName] = useState<string>();
  const [startDate, setStartDate] = useState<string>();
  const [tab, setTab] = useState<'all' | RowStatus>('all');
  const { state, start } = useRosterUpload(store, config);
  const { confirm, progress } = useConfirmRoster();
  const [dialog, setDialog] = useState<{ open: boolean; quote: QuoteView | null; loading: boolean; submitting: boolean; leftOut: number; error?: string }>({
    open: false,
    quote: null,
    loading: false,
    submitting: false,
    leftOut: 0,
  });
  const confirmKey = useRef('');
  const planField = form.fields.find((f) => f.name === 'planName');
  const auth = { token: user.token, companyId: user.businessInfo.businessId };

  useEffect(() => {
    getConfig()
      .then((c) => {
        setConfig(c);
        setStartDate((d) => d ?? c.earliestStartDate);
      })
      .catch((e: unknown) => message.error(e instanceof ApiError ? e.message : '加载上传设置失败'));
    api
      .get<Array<{ value: string; label: string }>>(planField?.optionsApi ?? '/api/plans?unit=month')
      .then(setPlans)
      .catch(() => message.error('保险方案加载失败'));
  }, [planField?.optionsApi]);

  // Until every page of an upload is in the editor, what it shows is not yet what would be confirmed.
  const rowsPending = !!state.rowsLoaded && state.rowsLoaded.done < state.rowsLoaded.total;
  const busy = state.phase === 'uploading' || state.phase === 'parsing' || state.phase === 'loading' || rowsPending;
  const ready = !!planName && !!startDate;
  const upload = state.phase === 'ready' || state.upload ? state.upload : undefined;

  const download = (url: string, name: string) => downloadWithAuth(url, auth, name).catch((e: unknown) => message.error(e instanceof Error ? e.message : '下载失败'));

  const openConfirm = async () => {
    const counts = store.getCounts();
    if (!planName || !startDate) return message.error('请先选择保险方案和起保日期');
    if (counts.valid === 0) return message.error('没有可投保的人员，请先修改有误的行');
    if (config && counts.valid > config.maxRows) return message.error(`每次最多投保 ${config.maxRows} 人，当前有效 ${counts.valid} 人，请拆分后分批上传`);
    confirmKey.current = newIdempotencyKey();
    setDialog({ open: true, quote: null, loading: true, submitting: false, leftOut: counts.total - counts.valid });
    try {
      const quote = await getQuote(planName, startDate, counts.valid);
      setDialog((d) => ({ ...d, quote, loading: false }));
    } catch (e) {
      setDialog((d) => ({ ...d, loading: false, error: e instanceof ApiError ? e.message : '费用计算失败' }));
    }
  };

  const submit = async () => {
    const rows = store.validRows();
    setDialog((d) => ({ ...d, submitting: true, error: undefined }));
    try {
      const r = await confirm(
        {
          uploadId: upload?.id,
          planName: planName!,
          startDate: startDate!,
          // An upload nobody edited: its id alone (the gateway confirms its stored valid rows, the ones shown here);
          // otherwise every column of the roster (the person's writable fields), as the editor holds them.
          rows: upload && !store.edited ? undefined : rows.map((x) => ({ ...x.values, ...(x.row ? { row: x.row } : {}) })),
        },
        confirmKey.current,
      );
      const orderCount = r.orders.length > 1 ? `，共 ${r.orders.length} 个订单` : '';
      message.success(`投保成功：${r.people} 人，保费 ${formatMoney(r.amount)}${orderCount}`);
      navigate(`${HISTORY}/${r.batchId}`);
    } catch (e) {
      const err = e instanceof ApiError ? e : undefined;
      // The background job failed (nothing insured): confirming again is a new request.
      if (e instanceof ConfirmJobError) confirmKey.current = newIdempotencyKey();
      // Field errors name the row of the body (rows[i].idCard): show them on that row of the editor.
      const byId = new Map<number, Record<string, string>>();
      for (const fe of err?.fieldErrors ?? []) {
        const m = /^rows\[(\d+)\]\.(\w+)$/.exec(fe.field);
        const target = m ? rows[Number(m[1])] : undefined;
        if (target) byId.set(target.id, { ...byId.get(target.id), [m![2]]: fe.message.replace(/^第 \d+ (行|条)：/, '') });
      }
      if (byId.size) store.setErrors(byId);
      setDialog((d) => ({ ...d, submitting: false, error: err?.message ?? '投保失败，请重试' }));
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="roster-upload">
      <Card title="投保信息">
        <Form layout="inline">
          <Form.Item label="保险方案" required help={planField?.description}>
            <Select
              style={{ width: 320 }}
              aria-label="保险方案"
              placeholder="请选择保险方案"
              options={plans}
              value={planName}
              onChange={setPlanName}
              data-testid="plan-select"
            />
          </Form.Item>
          <Form.Item label="起保日期" required help={config ? `最早 ${config.earliestStartDate}（北京时间）` : undefined}>
            <DatePicker
              aria-label="起保日期"
              value={startDate ? dayjs(startDate) : null}
              onChange={(d: Dayjs | null) => setStartDate(d ? d.format('YYYY-MM-DD') : undefined)}
              disabledDate={(d) => !!config && d.format('YYYY-MM-DD') < config.earliestStartDate}
              allowClear={false}
            />
          </Form.Item>
        </Form>
      </Card>
      <Card
        title="投保名单"
        extra={<Typography.Text type="secondary">{form.description}</Typography.Text>}
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <Button icon={<DownloadOutlined />} onClick={() => void download(`${BASE}/template`, '名单投保模板.xlsx')}>
            下载模板
          </Button>
          <Tooltip title={ready ? `支持 ${ACCEPT.join('、')}，最大 ${config ? config.maxBytes / 1024 / 1024 : 10} MB、${(config?.maxRows ?? 50000).toLocaleString()} 行` : '请先选择保险方案和起保日期'}>
            <span>
              <Upload
                accept={ACCEPT.map((e) => `.${e}`).join(',')}
                showUploadList={false}
                disabled={!ready || busy}
                beforeUpload={(file) => {
                  void start(file, { planName: planName!, startDate: startDate! });
                  return false;
                }}
              >
                <Button type="primary" icon={<UploadOutlined />} disabled={!ready || busy} loading={busy}>
                  {upload ? '重新上传' : '上传名单'}
                </Button>
              </Upload>
            </span>
          </Tooltip>
          {upload?.hasErrorFile ? (
            <Button icon={<DownloadOutlined />} onClick={() => void download(`${BASE}/${upload.id}/errors`, '错误明细.xlsx')}>
              下载错误明细
            </Button>
          ) : null}
          <Button icon={<PlusOutlined />} onClick={() => store.addRow()}>
            添加一行
          </Button>
        </Space>
        <ParseStatus state={state} />
        {upload ? (
          <Alert
            style={{ margin: '8px 0' }}
            type={upload.counts.errors || upload.counts.duplicates ? 'warning' : 'success'}
            showIcon
            data-testid="upload-summary"
            message={`已解析「${upload.fileName}」：共 ${upload.counts.total} 行，有效 ${upload.counts.valid} 行，有误 ${upload.counts.errors} 行，重复 ${upload.counts.duplicates} 行`}
            description={state.unknownHeaders.length ? `以下列未识别，已忽略：${state.unknownHeaders.join('、')}` : undefined}
          />
        ) : null}
        <RosterTabs store={store} tab={tab} onChange={setTab} />
        <RosterEditor store={store} filter={tab === 'all' ? undefined : tab} />
        <ConfirmBar store={store} busy={busy} onConfirm={() => void openConfirm()} />
      </Card>
      <ConfirmDialog
        {...dialog}
        progress={progress}
        orderSize={config?.maxBatchRows}
        onOk={() => void submit()}
        onCancel={() => setDialog((d) => (d.submitting ? d : { ...d, open: false }))}
      />
    </Space>
  );
}
