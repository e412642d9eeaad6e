import { useEffect, useState } from 'react';

export interface WindowSize {
  width: number;
  height: number;
}

/** Size assumed where there is no window (server rendering): a common desktop viewport. */
export const FALLBACK_WINDOW_SIZE: WindowSize = { width: 1440, height: 900 };

function readSize(): WindowSize {
  if (typeof window === 'undefined') return FALLBACK_WINDOW_SIZE;
  return { width: window.innerWidth, height: window.innerHeight };
}

/** Window width and height, following resizes; updates are throttled to one per animation frame. */
export function useWindowSize(): WindowSize {
  const [size, setSize] = useState<WindowSize>(readSize);

  useEffect(() => {
    if (typeof window === 'undefined') return undefined;
    const raf: (cb: () => void) => number =
      typeof window.requestAnimationFrame === 'function'
        ? (cb) => window.requestAnimationFrame(cb)
        : (cb) => window.setTimeout(cb, 16);
    const cancel: (id: number) => void =
      typeof window.cancelAnimationFrame === 'function'
        ? (id) => window.cancelAnimationFrame(id)
        : (id) => window.clearTimeout(id);
    let pending: number | undefined;
    const update = () => {
      pending = undefined;
      const next = readSize();
      setSize((prev) => (prev.width === next.width && prev.height === next.height ? prev : next));
    };
    const onResize = () => {
      if (pending === undefined) pending = raf(update);
    };
    window.addEventListener('resize', onResize);
    // The window may have changed between the first render and this effect.
    update();
    return () => {
      window.removeEventListener('resize', onResize);
      if (pending !== undefined) cancel(pending);
    };
  }, []);

  return size;
}
