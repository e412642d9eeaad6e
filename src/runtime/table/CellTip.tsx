import { memo, useEffect, useState, useSyncExternalStore, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import { Tooltip } from 'antd';
import type { TooltipPlacement } from './sizing';

/** True when the element's content is wider than its box (the text is cut off). */
export function isOverflowing(el: HTMLElement | null): boolean {
  return !!el && el.scrollWidth > el.clientWidth;
}

/** What a table's cells call on the pointer's way in and out (buildColumns puts them on the cells). */
export interface CellTipApi {
  show(e: MouseEvent<HTMLElement>, placement: TooltipPlacement): void;
  hide(): void;
}

interface Tip {
  rect: DOMRect;
  title: string;
  placement: TooltipPlacement;
}

/** The tooltip's state outside React, so that showing it re-renders the tooltip only, not the table. */
function createTipStore() {
  let tip: Tip | null = null;
  const listeners = new Set<() => void>();
  const set = (next: Tip | null) => {
    if (tip === next) return;
    tip = next;
    listeners.forEach((l) => l());
  };
  const api: CellTipApi = {
    show(e, placement) {
      const cell = e.currentTarget;
      // A fixed column's text is cut in antd's inner span (buildColumns), the others' in the cell itself.
      if (!isOverflowing(cell.querySelector<HTMLElement>(':scope > .ant-table-cell-content') ?? cell)) return;
      set({ rect: cell.getBoundingClientRect(), title: (cell.textContent ?? '').trim(), placement });
    },
    hide: () => set(null),
  };
  return {
    api,
    get: () => tip,
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
type TipStore = ReturnType<typeof createTipStore>;

const CellTipHost = memo(function CellTipHost({ store }: { store: TipStore }) {
  const tip = useSyncExternalStore(store.subscribe, store.get);
  const open = tip !== null;
  useEffect(() => {
    if (!open) return;
    window.addEventListener('scroll', store.api.hide, { capture: true, passive: true });
    return () => window.removeEventListener('scroll', store.api.hide, { capture: true });
  }, [open, store]);
  return tip ? (
    <Tooltip open title={tip.title} placement={tip.placement} destroyOnHidden>
      <span aria-hidden="true" style={anchorStyle(tip.rect)} />
    </Tooltip>
  ) : null;
});

/**
 * One tooltip per table for its cut-off cells ("…"): a cell whose text overflows shows its full text
 * above it while the pointer is on it; a short value shows none. The cells stay plain text in their
 * `<td>` (antd's ellipsis class cuts them): a tooltip — or even a wrapper to measure — in each of a
 * page's 300 cells was a quarter of the elements a list page drew. The tooltip is anchored to an empty
 * box laid over the cell (fixed, not hit by the pointer) and closes when the page scrolls. Returns the
 * API the cells call (stable) and the tooltip's host, to be rendered once beside the table.
 */
export function useCellTip(): [CellTipApi, ReactNode] {
  const [store] = useState(createTipStore);
  return [store.api, <CellTipHost store={store} />];
}

const anchorStyle = (r: DOMRect): CSSProperties => ({
  position: 'fixed',
  left: r.left,
  top: r.top,
  width: r.width,
  height: r.height,
  pointerEvents: 'none',
});
