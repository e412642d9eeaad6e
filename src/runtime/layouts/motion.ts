import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';
const media = (): MediaQueryList | undefined => (typeof matchMedia === 'function' ? matchMedia(QUERY) : undefined);

function subscribe(onChange: () => void): () => void {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

/**
 * Whether the user asked the system for less motion (WCAG 2.3.3), following the setting while the page is
 * open: the console then opens menus, drawers and dialogs and shows toasts without their animations.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => media()?.matches ?? false, () => false);
}
