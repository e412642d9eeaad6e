/**
 * 确认投保: the cost breakdown (people × months × unit price) and the balance before anything is
 * charged; while an upload is being insured in the background, its progress (已投保 N / M 人).
 */
import { Alert, Descriptions, Modal, Progress, Typography } from 'antd';
import { formatMoney } from '../../../../utils/number';
import type { QuoteView } from './api';
import type { ConfirmProgress } from './useConfirmRoster';

export interface ConfirmDialogProps {
  open: boolean;
  quote: QuoteView | null;
  loading: boolean;
  submitting: boolean;
  /** Rows of the roster that are not valid and will not be insured. */
  leftOut: number;
  /** Persons per order (the gateway's maxBatchRows): a larger roster becomes consecutive orders. */
  orderSize?: number;
  error?: string;
  /** Progress of the background confirmation (an upload), while it runs. */
  progress?: ConfirmProgress | null;
  onOk(): void;
  onCancel(): void;
}

function ConfirmProgressBar({ progress }: { progress: ConfirmProgress }) {
  const n = (v: number) => v.toLocaleString('en-US');
  const text =
    progress.total > 0 && progress.done >= progress.total
      ? `已投保 ${n(progress.done)} / ${n(progress.total)} 人，正在生成投保单…`
      : `已投保 ${n(progress.done)} / ${n(progress.total)} 人`;
  return (
    <div style={{ marginTop: 12 }} data-testid="confirm-progress" role="status" aria-live="polite">
      <Progress percent={progress.percent} status="active" />
      <Typography.Text type="secondary">正在投保，请勿关闭页面：{text}</Typography.Text>
    </div>
  );
}

export function ConfirmDialog({ open, quote, loading, submitting, leftOut, orderSize, error, progress, onOk, onCancel }: ConfirmDialogProps) {
  const blocked = !quote || !quote.enough || !!quote.startError;
  return (
    <Modal
      open={open}
      title="确认投保"
      okText={quote?.chargeForm === 'prepaid' ? '确认并扣费' : '确认投保'}
      cancelText="返回修改"
      onOk={onOk}
      onCancel={onCancel}
      confirmLoading={submitting}
      okButtonProps={{ disabled: loading || blocked }}
      cancelButtonProps={{ disabled: submitting }}
      closable={!submitting}
      maskClosable={!submitting}
      keyboard={!submitting}
      width={560}
      destroyOnClose
    >
      {quote ? (
        <Descriptions column={1} size="small" bordered data-testid="cost-breakdown" styles={{ label: { width: 140 } }}>
          <Descriptions.Item label="保险方案">{quote.planName}</Descriptions.Item>
          <Descriptions.Item label="保障期间">
            {quote.startDate} 至 {quote.endDate}
          </Descriptions.Item>
          <Descriptions.Item label="投保人数">{quote.people} 人</Descriptions.Item>
          <Descriptions.Item label="单价">{formatMoney(quote.unitPrice)} / 人·月</Descriptions.Item>
          <Descriptions.Item label="计算方式">
            {quote.people} 人 × {quote.months} 个月 × {formatMoney(quote.unitPrice)}
          </Descriptions.Item>
          {quote.orders > 1 ? (
            <Descriptions.Item label="订单">
              <span data-testid="cost-orders">
                {orderSize ? `按每单最多 ${orderSize.toLocaleString('en-US')} 人` : ''}分为 {quote.orders} 个订单，一次确认、一并{quote.chargeForm === 'prepaid' ? '扣费' : '计入账单'}
              </span>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label="保费合计">
            <Typography.Text strong style={{ fontSize: 16 }} data-testid="cost-total">
              {formatMoney(quote.total)}
            </Typography.Text>
          </Descriptions.Item>
          {quote.chargeForm === 'prepaid' ? (
            <>
              <Descriptions.Item label="当前余额">{formatMoney(quote.balance)}</Descriptions.Item>
              <Descriptions.Item label="扣费后余额">{formatMoney(quote.balanceAfter)}</Descriptions.Item>
            </>
          ) : (
            <Descriptions.Item label="付费方式">后付费：计入本月账单</Descriptions.Item>
          )}
        </Descriptions>
      ) : (
        <Typography.Text type="secondary">{loading ? '正在计算费用…' : '无法计算费用'}</Typography.Text>
      )}
      {leftOut > 0 ? <Alert style={{ marginTop: 12 }} type="warning" showIcon message={`另有 ${leftOut} 行有误或重复，不会投保，将在投保单中记为失败`} /> : null}
      {quote && !quote.enough ? <Alert style={{ marginTop: 12 }} type="error" showIcon message="余额不足，请先充值或减少投保人数" /> : null}
      {quote?.startError ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={quote.startError} /> : null}
      {submitting && progress ? <ConfirmProgressBar progress={progress} /> : null}
      {error ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} data-testid="confirm-error" /> : null}
    </Modal>
  );
}
