import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { MESSAGE_CONFIG, NOTIFICATION_CONFIG, setFeedbackInstances } from '../feedback';
import { ErrorBoundary } from '../errors';
import { useTranslation } from '../i18n';
import { CONSOLE_THEME } from './theme';

dayjs.locale('zh-cn');

/** Points toasts and notifications at antd's App context (theme + locale aware). */
function FeedbackBridge() {
  const { message, notification } = AntApp.useApp();
  useEffect(() => setFeedbackInstances({ message, notification }), [message, notification]);
  return null;
}

/** Layout group "basic": antd in Simplified Chinese (English when chosen in the header) with the console theme (AA contrast), the App context, the toast bridge, an error boundary. */
export function BasicLayout({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const english = i18n.language === 'en-US';
  useEffect(() => {
    dayjs.locale(english ? 'en' : 'zh-cn');
  }, [english]);
  return (
    <ConfigProvider locale={english ? enUS : zhCN} theme={CONSOLE_THEME} button={{ autoInsertSpace: false }}>
      <AntApp message={MESSAGE_CONFIG} notification={NOTIFICATION_CONFIG}>
        <FeedbackBridge />
        <ErrorBoundary>{children}</ErrorBoundary>
      </AntApp>
    </ConfigProvider>
  );
}
