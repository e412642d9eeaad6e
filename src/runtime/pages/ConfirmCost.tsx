import { useEffect, useState } from 'react';
import { Alert, Descriptions, Modal, Spin, Typography } from 'antd';
import { api } from '../../services/request';
import { CHARGE_FORM_LABELS } from '../../shared/labels';
import { formatValue } from '../format';

/** What a quote endpoint answers (e.g. POST /api/insure/quote); only `total` and `enough` are required. */
export interface CostQuote {
  planName?: string;
  /** e.g. 「3 人 × 1 天 × ¥3.50/人·天」 */
  formula?: string;
  people?: number;
  total: number;
  chargeForm?: 'prepaid' | 'postpaid';
  balance?: number;
  balanceAfter?: number;
  statementMonth?: string;
  startDate?: string;
  endDate?: string;
  enough: boolean;
  /** Why it cannot be paid (e.g. 余额不足…). */
  message?: string;
}

export interface ConfirmCostProps {
  /** The form schema's `quote`: the endpoint and fixed values sent with the form's payload. */
  quote: { api: string; body?: Record<string, unknown> };
  payload: Record<string, unknown>;
  okText: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The quote was refused (bad input): the form shows it like a refused submission. */
  onError: (e: unknown) => void;
}

/**
 * 费用确认: asks the gateway what the submission will cost (nothing is stored or charged), shows the
 * breakdown and how it is paid, and lets the user confirm or go back. A short balance cannot be confirmed.
 */
export function ConfirmCost({ quote, payload, okText, onConfirm, onCancel, onError }: ConfirmCostProps) {
  const [q, setQ] = useState<CostQuote>();
  useEffect(() => {
    let live = true;
    api
      .post<CostQuote>(quote.api, { ...payload, ...quote.body })
      .then((r) => live && setQ(r))
      .catch((e: unknown) => live && onError(e));
    return () => {
      live = false;
    };
    // The quote is asked once per confirmation dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const prepaid = q?.chargeForm === 'prepaid';
  return (
    <Modal
      open
      title="确认费用"
      okText={`确认并${okText}`}
      cancelText="返回修改"
      onOk={onConfirm}
      onCancel={onCancel}
      okButtonProps={{ disabled: !q || !q.enough }}
      destroyOnClose
    >
      {!q ? (
        <Spin tip="正在计算费用…">
          <div style={{ height: 80 }} />
        </Spin>
      ) : (
        <div data-testid="cost-confirm">
          <Descriptions column={1} bordered size="small">
            {q.planName && <Descriptions.Item label="保险方案">{q.planName}</Descriptions.Item>}
            {q.startDate && (
              <Descriptions.Item label="保障期间">{q.endDate && q.endDate !== q.startDate ? `${q.startDate} 至 ${q.endDate}` : q.startDate}</Descriptions.Item>
            )}
            {q.formula && <Descriptions.Item label="计费">{q.formula}</Descriptions.Item>}
            <Descriptions.Item label="保费合计">
              <Typography.Text strong data-testid="cost-total">
                {formatValue(q.total, 'money')}
              </Typography.Text>
            </Descriptions.Item>
            {q.chargeForm && <Descriptions.Item label="付费方式">{CHARGE_FORM_LABELS[q.chargeForm]}</Descriptions.Item>}
            {prepaid && q.balance !== undefined && <Descriptions.Item label="当前余额">{formatValue(q.balance, 'money')}</Descriptions.Item>}
            {prepaid && q.enough && q.balanceAfter !== undefined && (
              <Descriptions.Item label="支付后余额">{formatValue(q.balanceAfter, 'money')}</Descriptions.Item>
            )}
            {!prepaid && q.statementMonth && <Descriptions.Item label="计入账单">{`${q.statementMonth} 月结账单`}</Descriptions.Item>}
          </Descriptions>
          <Alert
            style={{ marginTop: 12 }}
            showIcon
            role={q.enough ? undefined : 'alert'}
            type={q.enough ? 'info' : 'warning'}
            message={q.enough ? (prepaid ? '确认后将从账户余额扣除保费，保障随即生效。' : '确认后保障生效，保费计入当月账单。') : q.message ?? '当前无法支付该费用'}
          />
        </div>
      )}
    </Modal>
  );
}
