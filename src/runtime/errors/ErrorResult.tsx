import type { ReactNode } from 'react';
import { theme } from 'antd';
import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';

/**
 * The error boundary's screen, laid out like antd's Result (icon, title, explanation, actions) with the
 * theme's tokens. Result itself carries its 403/404/500 illustrations, code every page would load for a
 * screen that is rarely shown; the 403/404 pages, which show an illustration, use Result in their own chunks.
 */
export function ErrorResult({ status, title, subTitle, extra }: { status: 'error' | 'warning'; title: string; subTitle: string; extra: ReactNode }) {
  const { token } = theme.useToken();
  const Icon = status === 'error' ? CloseCircleFilled : ExclamationCircleFilled;
  return (
    <div style={{ padding: '48px 32px', textAlign: 'center' }} data-testid="error-result">
      <Icon style={{ fontSize: 72, color: status === 'error' ? token.colorError : token.colorWarning }} aria-hidden />
      <h2 style={{ margin: '24px 0 8px', color: token.colorTextHeading, fontSize: token.fontSizeHeading3, fontWeight: 'normal', lineHeight: token.lineHeightHeading3 }}>{title}</h2>
      <div style={{ color: token.colorTextDescription, fontSize: token.fontSize }}>{subTitle}</div>
      <div style={{ marginTop: 24, display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>{extra}</div>
    </div>
  );
}
