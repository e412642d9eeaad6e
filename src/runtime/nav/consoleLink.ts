/** The parts of a click (mouse or pointer event) that say whether the browser or the console follows a link. */
interface Press {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * The console path (without the base path, query or hash) of a link that a press makes the console itself
 * open: a plain left press on an anchor of this origin under the base path, in this window, not a
 * download. Undefined for what the browser opens itself (a modifier key or another button: a new tab or
 * window; another target, origin or a download). Shared by the row links' navigation (table/ListLink.tsx)
 * and the preload of a pressed link's page (App.tsx, PagePreload).
 */
export function consolePathOf(e: Press, a: HTMLAnchorElement | null, base: string): string | undefined {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return undefined;
  if (!a || (a.target && a.target !== '_self') || a.origin !== window.location.origin || a.hasAttribute('download')) return undefined;
  if (base && a.pathname !== base && !a.pathname.startsWith(`${base}/`)) return undefined;
  return a.pathname.slice(base.length) || '/';
}
