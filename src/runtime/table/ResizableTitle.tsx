import { useCallback, useEffect, useRef, type CSSProperties, type KeyboardEvent, type PointerEvent, type ThHTMLAttributes } from 'react';
import { DEFAULT_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './sizing';

/** Width change per ArrowLeft/ArrowRight press on the resize handle. */
export const KEYBOARD_RESIZE_STEP = 10;
export const RESIZE_HANDLE_LABEL = '调整列宽';

export interface ResizableTitleProps extends ThHTMLAttributes<HTMLTableCellElement> {
  /** Current column width; when absent the rendered width of the cell is used as the start. */
  width?: number | string;
  minWidth?: number;
  /** Called with the new width (px); without it the cell is a plain th (selection, expand columns). */
  onResize?: (width: number) => void;
}

const handleStyle: CSSProperties = {
  position: 'absolute',
  top: 0,
  right: -4,
  bottom: 0,
  width: 8,
  cursor: 'col-resize',
  zIndex: 2,
  touchAction: 'none',
  outlineOffset: -2,
};

/** Header cell with a drag handle on its right edge (pointer events) and keyboard resizing. */
export function ResizableTitle({ width, minWidth = MIN_COLUMN_WIDTH, onResize, children, style, ...rest }: ResizableTitleProps) {
  const thRef = useRef<HTMLTableCellElement>(null);
  const drag = useRef<{ startX: number; startWidth: number; pointerId: number } | null>(null);
  const frame = useRef<number>();
  const onResizeRef = useRef(onResize);
  onResizeRef.current = onResize;

  const currentWidth = useCallback((): number => {
    if (typeof width === 'number' && width > 0) return width;
    const measured = thRef.current?.getBoundingClientRect().width ?? 0;
    return measured > 0 ? Math.round(measured) : DEFAULT_COLUMN_WIDTH;
  }, [width]);

  const emit = useCallback(
    (next: number) => onResizeRef.current?.(Math.max(minWidth, Math.round(next))),
    [minWidth],
  );

  useEffect(
    () => () => {
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  if (!onResize) {
    return (
      <th {...rest} style={style}>
        {children}
      </th>
    );
  }

  const onPointerDown = (e: PointerEvent<HTMLSpanElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    drag.current = { startX: e.clientX, startWidth: currentWidth(), pointerId: e.pointerId };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLSpanElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    const next = d.startWidth + (e.clientX - d.startX);
    // One state update per frame while dragging.
    if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      frame.current = undefined;
      emit(next);
    });
  };
  const endDrag = (e: PointerEvent<HTMLSpanElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = null;
    if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    frame.current = undefined;
    emit(d.startWidth + (e.clientX - d.startX));
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLSpanElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    e.stopPropagation();
    emit(currentWidth() + (e.key === 'ArrowRight' ? KEYBOARD_RESIZE_STEP : -KEYBOARD_RESIZE_STEP));
  };
  const numericWidth = typeof width === 'number' ? width : undefined;

  return (
    <th {...rest} ref={thRef} style={{ ...style, position: style?.position ?? 'relative' }}>
      {children}
      <span
        className="console-table-resize-handle"
        role="separator"
        aria-orientation="vertical"
        aria-label={RESIZE_HANDLE_LABEL}
        aria-valuenow={numericWidth}
        aria-valuemin={minWidth}
        tabIndex={0}
        style={handleStyle}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={onKeyDown}
        // Keep clicks on the handle from toggling the column's sort order.
        onClick={(e) => e.stopPropagation()}
      />
    </th>
  );
}
