import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Toasts that follow the app's theme and locale: <FeedbackBridge/> (inside antd's <App>) points this at
 * App.useApp().message; before it mounts (or in tests) the static API is used.
 */
let current: MessageInstance = staticMessage;

export const message: MessageInstance = {
  success: (...a) => current.success(...a),
  error: (...a) => current.error(...a),
  info: (...a) => current.info(...a),
  warning: (...a) => current.warning(...a),
  loading: (...a) => current.loading(...a),
  open: (...a) => current.open(...a),
  destroy: (...a) => current.destroy(...a),
};

export function setMessageInstance(m: MessageInstance) {
  current = m;
}
