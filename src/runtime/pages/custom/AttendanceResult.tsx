import { Link } from 'react-router-dom';
import { Alert, Button, Card, Descriptions, Result, Space, Table } from 'antd';
import type { EnumOption } from '../../../schema/types';
import { formatValue } from '../../format';
import { PATHS } from './paths';
import { StatusTag } from './StatusTag';

/** A row of the submission that was not insured (the gateway's AutoSkip). */
export interface SkippedRow {
  rowNo: number;
  name: string;
  /** masked */
  idCard: string;
  autoStatus: number | string;
  reason: string;
}

/** What POST /api/insure/attendance answers: the historical form plus the outcome of this submission. */
export interface AttendanceOutcome {
  id: number;
  batchNo: string;
  total: number;
  insured: number;
  amount: number;
  orderNo: string;
  orderId: number | null;
  payStatus: 'paid' | 'unpaid';
  balanceAfter: number | null;
  skipped: SkippedRow[];
}

/**
 * 考勤投保的结果, shown on the page right after submitting: how many were insured and what it cost,
 * and every person who was not insured with the reason, with the way to fix them (参保人员管理) and
 * the historical form that keeps the per-row results.
 */
export function AttendanceResult({ outcome, statusOptions, onFixPersons, onAgain }: {
  outcome: AttendanceOutcome;
  statusOptions?: EnumOption[];
  onFixPersons(): void;
  onAgain(): void;
}) {
  const skipped = outcome.skipped.length;
  const formLink = `${PATHS.historyForm}/${outcome.id}`;
  return (
    <Card data-testid="attendance-result">
      <Result
        status={skipped ? 'warning' : 'success'}
        title={skipped ? `投保已提交：${outcome.insured} 人已投保，${skipped} 人未投保` : `投保已提交：${outcome.insured} 人已投保`}
        subTitle={`投保单号 ${outcome.batchNo}`}
        extra={
          <Space wrap>
            <Link to={formLink}>
              <Button type="primary">查看历史表单详情</Button>
            </Link>
            {skipped > 0 && <Button onClick={onFixPersons}>去参保人员管理处理</Button>}
            <Button onClick={onAgain}>继续考勤投保</Button>
          </Space>
        }
      />
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 4 }} data-testid="attendance-summary">
        <Descriptions.Item label="提交人数">{outcome.total}</Descriptions.Item>
        <Descriptions.Item label="已投保">{outcome.insured} 人</Descriptions.Item>
        <Descriptions.Item label="未投保">{skipped} 人</Descriptions.Item>
        <Descriptions.Item label="保费">{formatValue(outcome.amount, 'money')}</Descriptions.Item>
        <Descriptions.Item label="订单号">
          {outcome.orderId ? <Link to={PATHS.orderDetail(outcome.orderId)}>{outcome.orderNo}</Link> : outcome.orderNo}
        </Descriptions.Item>
        <Descriptions.Item label="支付">
          {outcome.payStatus === 'paid' ? `已从余额支付${outcome.balanceAfter === null ? '' : `，余额 ${formatValue(outcome.balanceAfter, 'money')}`}` : '待支付（后付费计入本月账单）'}
        </Descriptions.Item>
      </Descriptions>
      {skipped > 0 && (
        <>
          <Alert
            style={{ margin: '16px 0 12px' }}
            type="warning"
            showIcon
            message="以下人员本次未投保。已在参保人员名单中的人员，请在参保人员管理中完善或修改信息、开启自动投保；名单中没有的新人员，请补全信息后重新提交考勤投保。"
          />
          <Table<SkippedRow>
            data-testid="attendance-skipped"
            rowKey="rowNo"
            size="small"
            dataSource={outcome.skipped}
            pagination={skipped > 10 ? { pageSize: 10, showSizeChanger: false } : false}
            columns={[
              { title: '行号', dataIndex: 'rowNo', width: 72 },
              { title: '姓名', dataIndex: 'name' },
              { title: '身份证号', dataIndex: 'idCard' },
              { title: '自动投保状态', dataIndex: 'autoStatus', render: (v: unknown) => <StatusTag value={v} options={statusOptions} /> },
              { title: '未投保原因', dataIndex: 'reason' },
            ]}
          />
        </>
      )}
    </Card>
  );
}
