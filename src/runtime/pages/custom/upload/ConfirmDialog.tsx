/** 确认投保: the cost breakdown (people × months × unit price) and the balance before anything is charged. */
import { Alert, Descriptions, Modal, Typography } from 'antd';
import { formatMoney } from '../../../../utils/number';
import type { QuoteView } from './api';

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
  onOk(): void;
  onCancel(): void;
}

export function ConfirmDialog({ open, quote, loading, submitting, leftOut, orderSize, error, onOk, onCancel }: ConfirmDialogProps) {
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
      {leftOut > 0 ? <Alert style={{ marginTop: 12 }} type="warning" showIcon message={`另有 ${leftOut} 行有误或重复，不会投保，将在历史表单中记为失败`} /> : null}
      {quote && !quote.enough ? <Alert style={{ marginTop: 12 }} type="error" showIcon message="余额不足，请先充值或减少投保人数" /> : null}
      {quote?.startError ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={quote.startError} /> : null}
      {error ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} /> : null}
    </Modal>
  );
}
