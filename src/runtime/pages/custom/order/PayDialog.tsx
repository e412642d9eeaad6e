import { useMemo, useState } from 'react';
import { Alert, Descriptions, Modal } from 'antd';
import { api, ApiError, newIdempotencyKey } from '../../../../services/request';
import { formatValue } from '../../../format';
import { CHARGE_FORM_LABELS } from '../../../../shared/labels';
import { message } from '../../../feedback';
import type { UserStore } from '../../../../stores/user';
import { centsToYuan, yuanToCents } from '../../../../shared/money';

export interface PayableOrder {
  id: number;
  orderNo: string;
  amount: number;
  payStatus: string;
}

export interface Due {
  chargeForm: 'prepaid' | 'postpaid';
  balance: number;
  unpaidCount: number;
  unpaidAmount: number;
}

export interface PayResponse {
  order: Record<string, unknown>;
  balance: number;
  payment: { channel: 'balance' | 'provider'; payUrl?: string; payStatus: string };
}

/**
 * After a payment: the toast, the provider's page when there is one, and the balance the header and
 * account center show (the session's business list).
 */
export function afterPaid(user: UserStore, r: PayResponse): void {
  message.success(r.payment.payStatus === 'paid' ? '支付成功' : '支付已发起，请在支付页面完成付款');
  if (r.payment.payUrl) window.open(r.payment.payUrl, '_blank', 'noopener');
  user.setBusinessList(user.businessList.map((b) => (b.businessId === user.businessInfo.businessId ? { ...b, balance: r.balance } : b)));
}

/**
 * 确认支付: the amount, how it is paid and (prepaid) the balance before and after. A short balance is
 * said plainly and cannot be confirmed. One Idempotency-Key per dialog, so a retried click pays once.
 */
export function PayDialog({ order, due, onClose, onPaid }: { order: PayableOrder; due: Due; onClose: () => void; onPaid: (r: PayResponse) => void }) {
  const key = useMemo(() => newIdempotencyKey(), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const prepaid = due.chargeForm === 'prepaid';
  const amountCents = yuanToCents(order.amount);
  const balanceCents = yuanToCents(due.balance);
  const short = prepaid && balanceCents < amountCents;
  const pay = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onPaid(await api.post<PayResponse>(`/api/orders/${order.id}/pay`, {}, { idempotencyKey: key }));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '支付失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title="确认支付"
      okText={prepaid ? '确认从余额支付' : '确认在线支付'}
      cancelText="取消"
      onOk={pay}
      onCancel={onClose}
      confirmLoading={busy}
      okButtonProps={{ disabled: short }}
      destroyOnClose
    >
      <Descriptions column={1} bordered size="small" data-testid="pay-summary">
        <Descriptions.Item label="订单号">{order.orderNo}</Descriptions.Item>
        <Descriptions.Item label="应付金额">{formatValue(order.amount, 'money')}</Descriptions.Item>
        <Descriptions.Item label="付费方式">{CHARGE_FORM_LABELS[due.chargeForm]}</Descriptions.Item>
        <Descriptions.Item label="支付方式">{prepaid ? '账户余额' : '在线支付'}</Descriptions.Item>
        {prepaid && <Descriptions.Item label="当前余额">{formatValue(due.balance, 'money')}</Descriptions.Item>}
        {prepaid && !short && <Descriptions.Item label="支付后余额">{formatValue(centsToYuan(balanceCents - amountCents), 'money')}</Descriptions.Item>}
      </Descriptions>
      {short && (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          role="alert"
          message={`余额不足：本次需支付 ${formatValue(order.amount, 'money')}，当前余额 ${formatValue(due.balance, 'money')}，请先充值`}
        />
      )}
      {error && <Alert style={{ marginTop: 12 }} type="error" showIcon role="alert" message={error} />}
    </Modal>
  );
}
