import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { setMessageInstance } from '../feedback';
import { ErrorBoundary } from './ErrorBoundary';

dayjs.locale('zh-cn');

/** Points toasts at antd's App context (theme + locale aware). */
function FeedbackBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageInstance(message), [message]);
  return null;
}

/** Layout group "basic": antd in Simplified Chinese, the App context, the toast bridge, an error boundary. */
export function BasicLayout({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <FeedbackBridge />
        <ErrorBoundary>{children}</ErrorBoundary>
      </AntApp>
    </ConfigProvider>
  );
}
