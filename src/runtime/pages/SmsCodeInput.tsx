import { useEffect, useState } from 'react';
import { Button, Input, Space } from 'antd';
import { message } from '../feedback';
import { api, ApiError } from '../../services/request';
import { PHONE_RE } from '../validators';

export interface SmsCodeInputProps {
  value?: string;
  onChange?: (v: string) => void;
  placeholder?: string;
  /** The phone number the code is sent to (the form's phone field). */
  phone: () => string;
}

/** "获取验证码" next to the code input: sends the SMS for the form's phone, then counts down. */
export function SmsCodeInput(props: SmsCodeInputProps) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);
  const send = async () => {
    const phone = props.phone();
    if (!PHONE_RE.test(phone)) {
      message.error('请先输入正确的 11 位手机号');
      return;
    }
    setSending(true);
    try {
      await api.post('/api/auth/sms-code', { phone });
      message.success('验证码已发送');
      setLeft(60);
    } catch (e) {
      message.error(e instanceof ApiError ? e.message : '验证码发送失败');
    } finally {
      setSending(false);
    }
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input value={props.value} onChange={(e) => props.onChange?.(e.target.value)} placeholder={props.placeholder ?? '短信验证码'} maxLength={6} />
      <Button onClick={send} disabled={left > 0} loading={sending}>
        {left > 0 ? `${left} 秒后重发` : '获取验证码'}
      </Button>
    </Space.Compact>
  );
}
