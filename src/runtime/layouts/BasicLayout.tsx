import { useEffect, type ReactNode } from 'react';
import { ConfigProvider, message as antMessage, notification as antNotification, theme } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { Provider as MotionProvider } from 'rc-motion';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { MESSAGE_CONFIG, NOTIFICATION_CONFIG, setFeedbackInstances } from '../feedback';
import { ErrorBoundary } from '../errors';
import { CONSOLE_THEME } from './theme';
import { usePrefersReducedMotion } from './motion';

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

/**
 * Layout group "basic": antd in Simplified Chinese with the console theme (AA contrast), toasts and
 * notifications, an error boundary. With the system's "reduce motion" setting, antd's components open and
 * close without animation (rc-motion's provider, which antd's own `motion: false` token would set too, but
 * a token change would also change the theme's hash and with it the static style sheet's class names).
 */
export function BasicLayout({ children }: { children: ReactNode }) {
  const reduced = usePrefersReducedMotion();
  return (
    <ConfigProvider locale={zhCN} theme={CONSOLE_THEME} button={{ autoInsertSpace: false }} wave={{ disabled: reduced }}>
      <MotionProvider motion={!reduced}>
        <ConsoleRoot>
          <ErrorBoundary>{children}</ErrorBoundary>
        </ConsoleRoot>
      </MotionProvider>
    </ConfigProvider>
  );
}
