import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Button, Card, Descriptions, Space, Table } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { getTable } from '../../../schema/registry';
import { useStores } from '../../context';
import { message } from '../../feedback';
import { formatValue } from '../../format';
import { useLoad } from './useLoad';
import { LoadState } from './LoadState';
import { downloadWithAuth } from './download';
import { DetailNotFound } from '../DetailNotFound';
import { StatusTag } from './StatusTag';
import type { FormRowResult } from '../../../shared/insure-form-rows';

interface Batch {
  id: number;
  batchNo: string;
  source: string;
  fileName?: string;
  total: number;
  succeeded: number;
  failed: number;
  status: string;
  createdAt: string;
}

/** GET /api/insure-batches/:id/info: who uploaded the form, its plan, period and order. */
interface FormInfo {
  channel: 'upload' | 'file' | 'manual';
  uploader: string | null;
  planName: string | null;
  startDate: string | null;
  endDate: string | null;
  orderId: number | null;
  orderNo: string | null;
  /** The total of all the form's orders. */
  amount: number | null;
  /** A form of more than 5,000 persons has one order per 5,000 (consecutive rows). */
  orders?: Array<{ id: number; orderNo: string; people: number; amount: number }>;
}

const CHANNEL: Record<FormInfo['channel'], string> = { upload: '上传文件', file: '上传文件', manual: '在线录入' };
const ORDERS = '/main/online-insurance/cost-manage/order-manage';

type FormRow = FormRowResult;

const PAGE_SIZE = 30;

/** The form's row columns: the insure-batch-row entity's fields (the person's, then result and reason). */
const rowColumns = getTable('insure-batch-rows').columns.map((c) => ({
  title: c.title,
  dataIndex: c.dataIndex,
  ...(c.dataIndex === 'rowNo' ? { width: 80 } : {}),
  render: (v: unknown) => (c.valueType === 'enum' ? <StatusTag value={v} options={c.options} /> : formatValue(v, c.valueType, c.options)),
}));

/** Enum labels of the history-form list (schemas/tables/insure-batches.json), so both pages agree. */
function optionLabel(dataIndex: string, value: string): string {
  const col = getTable('insure-batches').columns.find((c) => c.dataIndex === dataIndex);
  return col?.options?.find((o) => o.value === value)?.label ?? value;
}

/** 历史表单详情: the form's header (GET /api/insure-batches/:id), its rows, and the original file. */
export function HistoryFormDetail() {
  const { id = '' } = useParams();
  const { user } = useStores();
  const [current, setCurrent] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const base = `/api/insure-batches/${encodeURIComponent(id)}`;
  const batch = useLoad<Batch>(base, '投保单信息');
  const info = useLoad<FormInfo>(`${base}/info`, '投保单信息');
  const rows = useLoad<{ list: FormRow[]; total: number }>(`${base}/rows?current=${current}&pageSize=${PAGE_SIZE}`, '投保单明细');

  const download = async (b: Batch) => {
    setDownloading(true);
    try {
      await downloadWithAuth(`${base}/file`, { token: user.token, companyId: user.businessInfo.businessId }, b.fileName || `${b.batchNo}.csv`);
    } catch (e) {
      message.error(e instanceof Error ? e.message : '下载失败');
    } finally {
      setDownloading(false);
    }
  };

  if (batch.notFound) return <DetailNotFound message={batch.notFound} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <LoadState load={batch}>
          {(b) => (
            <Descriptions
              title="投保单信息"
              bordered
              column={{ xs: 1, sm: 2, lg: 3 }}
              extra={
                b.fileName ? (
                  <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void download(b)}>
                    下载原文件
                  </Button>
                ) : null
              }
            >
              <Descriptions.Item label="投保单号">{b.batchNo}</Descriptions.Item>
              <Descriptions.Item label="投保方式">{optionLabel('source', b.source)}</Descriptions.Item>
              <Descriptions.Item label="文件名">{b.fileName || '-'}</Descriptions.Item>
              <Descriptions.Item label="总人数">{b.total}</Descriptions.Item>
              <Descriptions.Item label="成功">{b.succeeded}</Descriptions.Item>
              <Descriptions.Item label="失败">{b.failed}</Descriptions.Item>
              <Descriptions.Item label="状态">{optionLabel('status', b.status)}</Descriptions.Item>
              <Descriptions.Item label="提交时间">{formatValue(b.createdAt, 'dateTime')}</Descriptions.Item>
              {info.data ? (
                <>
                  <Descriptions.Item label="录入方式">{CHANNEL[info.data.channel]}</Descriptions.Item>
                  <Descriptions.Item label="上传人">{info.data.uploader ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label="保险方案">{info.data.planName ?? '-'}</Descriptions.Item>
                  <Descriptions.Item label="保障期间">{info.data.startDate ? `${info.data.startDate} 至 ${info.data.endDate}` : '-'}</Descriptions.Item>
                  <Descriptions.Item label="保费">{formatValue(info.data.amount, 'money')}</Descriptions.Item>
                  <Descriptions.Item label="订单号">
                    {info.data.orders && info.data.orders.length > 1 ? (
                      <Space direction="vertical" size={2} data-testid="form-orders">
                        {info.data.orders.map((o) => (
                          <span key={o.id}>
                            <Link to={`${ORDERS}/${o.id}`}>{o.orderNo}</Link>（{o.people} 人，{formatValue(o.amount, 'money')}）
                          </span>
                        ))}
                      </Space>
                    ) : info.data.orderId ? (
                      <Link to={`${ORDERS}/${info.data.orderId}`}>{info.data.orderNo}</Link>
                    ) : (
                      '-'
                    )}
                  </Descriptions.Item>
                </>
              ) : null}
            </Descriptions>
          )}
        </LoadState>
      </Card>
      <Card title="投保单明细">
        {rows.error ? (
          <LoadState load={rows}>{() => null}</LoadState>
        ) : (
          <Table<FormRow>
            rowKey="rowNo"
            loading={rows.loading}
            dataSource={rows.data?.list ?? []}
            pagination={{ current, pageSize: PAGE_SIZE, total: rows.data?.total ?? 0, showSizeChanger: false, onChange: setCurrent }}
            columns={rowColumns}
          />
        )}
      </Card>
    </Space>
  );
}
