import { afterEach, describe, expect, it, vi } from 'vitest';
import { message as antMessage, notification as antNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import {
  FEEDBACK_DEFAULTS,
  MESSAGE_CONFIG,
  NOTIFICATION_CONFIG,
  message,
  notify,
  resetFeedbackInstances,
  setFeedbackInstances,
  setMessageInstance,
} from '../../src/runtime/feedback';

function fakeMessage() {
  return { success: vi.fn(), info: vi.fn(), warning: vi.fn(), error: vi.fn(), loading: vi.fn(), open: vi.fn(), destroy: vi.fn() };
}
function fakeNotification() {
  return { success: vi.fn(), info: vi.fn(), warning: vi.fn(), error: vi.fn(), open: vi.fn(), destroy: vi.fn() };
}

afterEach(() => {
  resetFeedbackInstances();
  vi.restoreAllMocks();
});

describe('feedback defaults', () => {
  it('match the spec', () => {
    expect(FEEDBACK_DEFAULTS.message).toMatchObject({ duration: 3, transition: 'move-up', kinds: ['success', 'info', 'warning', 'error', 'loading'] });
    expect(FEEDBACK_DEFAULTS.notification).toMatchObject({ duration: 4.5, top: 24, bottom: 24, placement: 'topRight', kinds: ['success', 'info', 'warning', 'error'] });
    expect(MESSAGE_CONFIG).toEqual({ duration: 3, transitionName: 'ant-message-move-up' });
    expect(NOTIFICATION_CONFIG).toEqual({ duration: 4.5, top: 24, bottom: 24, placement: 'topRight' });
  });
});

describe('toasts', () => {
  it('apply the default duration for every kind on the App instance', () => {
    const m = fakeMessage();
    setFeedbackInstances({ message: m as unknown as MessageInstance });
    for (const kind of FEEDBACK_DEFAULTS.message.kinds) message[kind](`${kind}!`);
    expect(m.open.mock.calls.map((c) => c[0])).toEqual(
      FEEDBACK_DEFAULTS.message.kinds.map((type) => ({ type, content: `${type}!`, duration: 3 })),
    );
  });

  it('let a call choose its duration and onClose, in both call styles', () => {
    const m = fakeMessage();
    setMessageInstance(m as unknown as MessageInstance);
    const onClose = vi.fn();
    message.error('失败', 10, onClose);
    message.info('x', onClose);
    message.success({ content: '已保存', duration: 1, key: 'k' });
    message.open({ type: 'warning', content: 'w' });
    expect(m.open.mock.calls.map((c) => c[0])).toEqual([
      { type: 'error', content: '失败', duration: 10, onClose },
      { type: 'info', content: 'x', duration: 3, onClose },
      { type: 'success', content: '已保存', duration: 1, key: 'k' },
      { type: 'warning', content: 'w', duration: 3 },
    ]);
    message.destroy('k');
    expect(m.destroy).toHaveBeenCalledWith('k');
  });

  it('configure the static API before using it as a fallback', () => {
    const config = vi.spyOn(antMessage, 'config');
    const nconfig = vi.spyOn(antNotification, 'config');
    const open = vi.spyOn(antMessage, 'open').mockImplementation(() => (() => {}) as never);
    message.loading('加载中');
    expect(open).toHaveBeenCalledWith({ type: 'loading', content: '加载中', duration: 3 });
    // This is the module's first fallback use in this file, so the static API gets configured now (once).
    expect(config).toHaveBeenCalledWith(MESSAGE_CONFIG);
    expect(nconfig).toHaveBeenCalledWith(NOTIFICATION_CONFIG);
    message.info('again');
    expect(config).toHaveBeenCalledTimes(1);
  });
});

describe('notifications', () => {
  it('apply duration 4.5 and top-right placement for every kind', () => {
    const n = fakeNotification();
    setFeedbackInstances({ notification: n as unknown as NotificationInstance });
    for (const kind of FEEDBACK_DEFAULTS.notification.kinds) notify[kind]({ message: kind, description: 'd' });
    for (const kind of FEEDBACK_DEFAULTS.notification.kinds) {
      expect(n[kind]).toHaveBeenCalledWith({ message: kind, description: 'd', duration: 4.5, placement: 'topRight' });
    }
    notify.open({ message: 'o', duration: 0, placement: 'bottomRight' });
    expect(n.open).toHaveBeenCalledWith({ message: 'o', duration: 0, placement: 'bottomRight' });
  });

  it('ignore our own wrappers as targets', () => {
    setFeedbackInstances({ message, notification: notify });
    const open = vi.spyOn(antMessage, 'open').mockImplementation(() => (() => {}) as never);
    message.info('i');
    expect(open).toHaveBeenCalledTimes(1);
  });
});
