import { useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Tooltip } from 'antd';
import type { TooltipPlacement } from './sizing';

export interface EllipsisCellProps {
  children?: ReactNode;
  /** Tooltip content; defaults to the cell content itself. */
  title?: ReactNode;
  placement?: TooltipPlacement;
}

const textStyle: CSSProperties = {
  display: 'block',
  maxWidth: '100%',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
};

/** True when the element's content is wider than its box (the text is cut off). */
export function isOverflowing(el: HTMLElement | null): boolean {
  return !!el && el.scrollWidth > el.clientWidth;
}

/**
 * One-line cell content truncated with "…"; the full content shows in a tooltip, but only when the text
 * really overflows (measured on mouse enter), so short values get no pointless tooltip. A cell is a plain
 * span until the pointer first finds its text cut off: a Tooltip in each of a page's hundreds of cells
 * was most of the time a list page took to appear.
 */
export function EllipsisCell({ children, title, placement = 'top' }: EllipsisCellProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const [open, setOpen] = useState(false);
  // Once the text was found cut off, the cell keeps its tooltip (the span is mounted once more, then stays).
  const [withTooltip, setWithTooltip] = useState(false);
  if (children === null || children === undefined || children === '') return <>{children}</>;
  const onEnter = () => {
    const cut = isOverflowing(ref.current);
    if (cut) setWithTooltip(true);
    setOpen(cut);
  };
  const text = (
    <span ref={ref} className="console-table-ellipsis" style={textStyle} onMouseEnter={onEnter} onMouseLeave={() => setOpen(false)}>
      {children}
    </span>
  );
  if (!withTooltip) return text;
  return (
    <Tooltip
      title={title ?? children}
      placement={placement}
      open={open}
      onOpenChange={(next) => setOpen(next && isOverflowing(ref.current))}
      destroyOnHidden
    >
      {text}
    </Tooltip>
  );
}
