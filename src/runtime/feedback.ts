import { isValidElement } from 'react';
import { message as staticMessage, notification as staticNotification } from 'antd';
import type { ArgsProps as MessageArgs, ConfigOptions as MessageConfig, MessageInstance, NoticeType, TypeOpen } from 'antd/es/message/interface';
import type {
  ArgsProps as NotificationArgs,
  IconType,
  NotificationConfig,
  NotificationInstance,
} from 'antd/es/notification/interface';

/**
 * One module for toasts (`message`) and notifications (`notify`), spec §8/§9.
 * Calls go to the instances of antd's <App> (theme + locale aware) once <FeedbackBridge/> hands them over
 * through setFeedbackInstances; before that (and in tests) the static antd API is used, configured the same way.
 */
export const FEEDBACK_DEFAULTS = Object.freeze({
  message: Object.freeze({
    kinds: ['success', 'info', 'warning', 'error', 'loading'] as const,
    /** Seconds. */
    duration: 3,
    /** antd's message motion; its CSS class is `${prefixCls}-move-up` (i.e. 'ant-message-move-up'). */
    transition: 'move-up',
  }),
  notification: Object.freeze({
    kinds: ['success', 'info', 'warning', 'error'] as const,
    /** Seconds. */
    duration: 4.5,
    top: 24,
    bottom: 24,
    placement: 'topRight' as const,
  }),
});

/** antd's default class prefix; the message motion name is derived from it. */
const ANT_PREFIX = 'ant';

/**
 * Config for antd's message: pass as `<App message={MESSAGE_CONFIG}>` (the static API gets it automatically).
 * transitionName equals antd's own default `${prefixCls}-move-up`, stated explicitly so the spec's 'move-up' is visible.
 */
export const MESSAGE_CONFIG: MessageConfig = Object.freeze({
  duration: FEEDBACK_DEFAULTS.message.duration,
  transitionName: `${ANT_PREFIX}-message-${FEEDBACK_DEFAULTS.message.transition}`,
});

/** Config for antd's notification: pass as `<App notification={NOTIFICATION_CONFIG}>`. */
export const NOTIFICATION_CONFIG: NotificationConfig = Object.freeze({
  duration: FEEDBACK_DEFAULTS.notification.duration,
  top: FEEDBACK_DEFAULTS.notification.top,
  bottom: FEEDBACK_DEFAULTS.notification.bottom,
  placement: FEEDBACK_DEFAULTS.notification.placement,
});

let currentMessage: MessageInstance | undefined;
let currentNotification: NotificationInstance | undefined;
let staticConfigured = false;

/** The static API only learns the defaults through its global config; done once, on first use. */
function configureStatic() {
  if (staticConfigured) return;
  staticConfigured = true;
  staticMessage.config({ ...MESSAGE_CONFIG });
  staticNotification.config({ ...NOTIFICATION_CONFIG });
}

function messageTarget(): MessageInstance {
  if (currentMessage) return currentMessage;
  configureStatic();
  return staticMessage;
}

function notificationTarget(): NotificationInstance {
  if (currentNotification) return currentNotification;
  configureStatic();
  return staticNotification;
}

function isMessageArgs(c: unknown): c is MessageArgs {
  return Boolean(c) && typeof c === 'object' && !isValidElement(c) && !Array.isArray(c) && 'content' in (c as object);
}

/** A toast of one kind with the default duration applied per call (so it holds for any instance). */
function toast(type: NoticeType): TypeOpen {
  return (content, duration, onClose) => {
    const args: MessageArgs = isMessageArgs(content) ? { ...content } : { content };
    let close = onClose;
    let seconds: number | undefined;
    if (typeof duration === 'function') close = duration;
    else if (typeof duration === 'number') seconds = duration;
    return messageTarget().open({
      ...args,
      type,
      duration: seconds ?? args.duration ?? FEEDBACK_DEFAULTS.message.duration,
      ...(close ? { onClose: close } : {}),
    });
  };
}

/** Toasts: success, info, warning, error, loading (3 s by default), plus open/destroy. */
export const message: MessageInstance = {
  success: toast('success'),
  info: toast('info'),
  warning: toast('warning'),
  error: toast('error'),
  loading: toast('loading'),
  open: (args) => messageTarget().open({ duration: FEEDBACK_DEFAULTS.message.duration, ...args }),
  destroy: (key) => messageTarget().destroy(key),
};

function notice(type: IconType) {
  return (args: NotificationArgs) =>
    notificationTarget()[type]({
      duration: FEEDBACK_DEFAULTS.notification.duration,
      placement: FEEDBACK_DEFAULTS.notification.placement,
      ...args,
    });
}

/** Notifications: success, info, warning, error (4.5 s, top right by default), plus open/destroy. */
export const notify: NotificationInstance = {
  success: notice('success'),
  info: notice('info'),
  warning: notice('warning'),
  error: notice('error'),
  open: (args) =>
    notificationTarget().open({
      duration: FEEDBACK_DEFAULTS.notification.duration,
      placement: FEEDBACK_DEFAULTS.notification.placement,
      ...args,
    }),
  destroy: (key) => notificationTarget().destroy(key),
};

/** Called with App.useApp()'s instances; an omitted one keeps its current target. */
export function setFeedbackInstances(i: { message?: MessageInstance; notification?: NotificationInstance }) {
  // Our own wrappers are never a target (that would loop).
  if (i.message && i.message !== message) currentMessage = i.message;
  if (i.notification && i.notification !== notify) currentNotification = i.notification;
}

/** Kept for src/runtime/App.tsx's FeedbackBridge. */
export function setMessageInstance(m: MessageInstance) {
  setFeedbackInstances({ message: m });
}

/** Back to the static antd API (tests). */
export function resetFeedbackInstances() {
  currentMessage = undefined;
  currentNotification = undefined;
}
