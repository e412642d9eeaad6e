import { useSyncExternalStore } from 'react';

export interface WindowSize {
  width: number;
  height: number;
}

/** Size assumed where there is no window (server rendering): a common desktop viewport. */
export const FALLBACK_WINDOW_SIZE: WindowSize = { width: 1440, height: 900 };

/**
 * The window's size, read once and again only after a resize. Reading innerWidth makes the browser lay
 * out the page first: read while a new page renders (its layout and side menu mount on every change of
 * layout), that laid out the page being left, about 12 ms of the first list page.
 */
let cached: WindowSize | undefined;
const listeners = new Set<() => void>();
let pending: number | undefined;
/** The window listened to (the tests' environments each have their own). */
let listening: Window | undefined;

function read(): WindowSize {
  if (typeof window === 'undefined') return FALLBACK_WINDOW_SIZE;
  return { width: window.innerWidth, height: window.innerHeight };
}

function onResize() {
  // The size is read again on its next use; those who show it render once per animation frame.
  cached = undefined;
  if (pending !== undefined) return;
  const notify = () => {
    pending = undefined;
    for (const l of listeners) l();
  };
  pending = typeof window.requestAnimationFrame === 'function' ? window.requestAnimationFrame(notify) : window.setTimeout(notify, 16);
}

/** The window's size now (the last one read, unless the window was resized since). */
export function windowSize(): WindowSize {
  if (typeof window === 'undefined') return FALLBACK_WINDOW_SIZE;
  if (listening !== window) {
    window.addEventListener('resize', onResize);
    listening = window;
    cached = undefined;
  }
  return (cached ??= read());
}

function subscribe(listener: () => void): () => void {
  windowSize();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Window width and height, following resizes (one update per animation frame). */
export function useWindowSize(): WindowSize {
  return useSyncExternalStore(subscribe, snapshot, () => FALLBACK_WINDOW_SIZE);
}

/** The same object while the size is unchanged (useSyncExternalStore compares snapshots by identity). */
let last: WindowSize = FALLBACK_WINDOW_SIZE;
function snapshot(): WindowSize {
  const now = windowSize();
  if (now.width !== last.width || now.height !== last.height) last = now;
  return last;
}
