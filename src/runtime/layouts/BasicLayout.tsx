import { useEffect, useState, type ReactNode } from 'react';
import { ConfigProvider, message as antMessage, notification as antNotification, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { MESSAGE_CONFIG, NOTIFICATION_CONFIG, setFeedbackInstances } from '../feedback';
import { ErrorBoundary } from '../errors';
import { useLanguage } from '../i18n/language';
import { CONSOLE_THEME } from './theme';

dayjs.locale('zh-cn');

/**
 * The console's root box with toasts and notifications bound to the theme and locale. It does what antd's
 * <App> does for us (message + notification hooks, the base text style of `.ant-app`) without <App>'s
 * modal hook, which would put Modal (and Skeleton) into every page's first load; dialogs use <Modal>.
 */
function ConsoleRoot({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  const [message, messageHolder] = antMessage.useMessage(MESSAGE_CONFIG);
  const [notification, notificationHolder] = antNotification.useNotification(NOTIFICATION_CONFIG);
  useEffect(() => setFeedbackInstances({ message, notification }), [message, notification]);
  return (
    <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>
      {messageHolder}
      {notificationHolder}
      {children}
    </div>
  );
}

/** antd's texts in the chosen language: Chinese is bundled, English is loaded when chosen. */
function useAntdLocale(english: boolean): Locale {
  const [enLocale, setEnLocale] = useState<Locale>();
  useEffect(() => {
    dayjs.locale(english ? 'en' : 'zh-cn');
    if (!english || enLocale) return;
    let live = true;
    void import('antd/es/locale/en_US').then((m) => live && setEnLocale(m.default), () => undefined);
    return () => {
      live = false;
    };
  }, [english, enLocale]);
  return english && enLocale ? enLocale : zhCN;
}

/** Layout group "basic": antd in Simplified Chinese (English when chosen in the header) with the console theme (AA contrast), toasts and notifications, an error boundary. */
export function BasicLayout({ children }: { children: ReactNode }) {
  const locale = useAntdLocale(useLanguage() === 'en-US');
  return (
    <ConfigProvider locale={locale} theme={CONSOLE_THEME} button={{ autoInsertSpace: false }}>
      <ConsoleRoot>
        <ErrorBoundary>{children}</ErrorBoundary>
      </ConsoleRoot>
    </ConfigProvider>
  );
}
