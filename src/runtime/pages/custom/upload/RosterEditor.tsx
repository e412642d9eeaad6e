/**
 * The roster editor: every row of a roster (up to the upload limit) in a virtualized grid
 * (@tanstack/react-virtual), so only the rows in view are in the DOM. Each row is its own component
 * subscribed to its checks in the RosterStore; a cell is an <input> only while it is edited, and that
 * input is uncontrolled (the store gets every keystroke, the input keeps its text): a keystroke re-renders
 * nothing unless it changes the row's checks, and then that row only. Rows and the scroll box are
 * CSS-contained, so a keystroke's style, layout and paint work stays inside its row.
 */
import { memo, useCallback, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Button, Empty } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { RosterStore, RowStatus } from './rosterStore';

const ROW_HEIGHT = 44;
// Flexible tracks with minimums that fit 1024 px windows; narrower ones scroll inside the table, never the page.
const WIDTHS: Record<string, string> = { name: 'minmax(96px, 1fr)', idCard: 'minmax(184px, 1.5fr)', phone: 'minmax(128px, 1.1fr)', jobType: 'minmax(96px, 1fr)' };

function gridColumns(store: RosterStore): { template: string; minWidth: number } {
  const tracks = ['56px', ...store.columns.map((c) => WIDTHS[c.key] ?? 'minmax(110px, 1fr)'), 'minmax(150px, 1.6fr)', '52px'];
  // Rows are size- and paint-contained, so they do not grow with their content: they get the tracks' minimum width.
  const minWidth = tracks.reduce((sum, t) => sum + Number(/(\d+)px/.exec(t)![1]), 0);
  return { template: tracks.join(' '), minWidth };
}

const cellStyle: CSSProperties = { padding: '0 6px', display: 'flex', alignItems: 'center', minWidth: 0 };

const inputStyle: CSSProperties = {
  width: '100%',
  height: 28,
  padding: '0 8px',
  border: '1px solid #d9d9d9',
  borderRadius: 4,
  fontSize: 14,
  color: 'rgba(0,0,0,0.88)',
  background: '#fff',
  outlineColor: '#1677ff',
};
const inputErrorStyle: CSSProperties = { ...inputStyle, borderColor: '#ff4d4f', outlineColor: '#ff4d4f' };

// The value box of a cell that is not being edited: the input's look, its text on one line.
const boxStyle: CSSProperties = { ...inputStyle, display: 'flex', alignItems: 'center', overflow: 'hidden', whiteSpace: 'pre', cursor: 'text', lineHeight: '26px' };
const boxErrorStyle: CSSProperties = { ...boxStyle, borderColor: '#ff4d4f', outlineColor: '#ff4d4f' };

/**
 * One cell. At rest it is a focusable text box showing the store's value; focus (a click or Tab) turns it
 * into a plain, uncontrolled <input> with the caret where the click was (at the end after Tab), and leaving
 * it turns it back. Only the cell being edited is an <input>: every input is its own scroller and clip in
 * Chromium's paint, so a screen of ~70 inputs made each keystroke's repaint pay for all of them
 * (docs/benchmarks.md). The store gets every keystroke; the cell re-renders only when its own error
 * changes or it starts or stops editing.
 */
const Cell = memo(function Cell(p: { store: RosterStore; id: number; col: string; label: string; error?: string; flagged: boolean }) {
  const [editing, setEditing] = useState(false);
  // Where a click landed in the text, so the input's caret goes there (Tab puts it at the end).
  const clicked = useRef<number | null>(null);
  const focusInput = useCallback((el: HTMLInputElement | null) => {
    if (!el || el === document.activeElement) return;
    const at = Math.min(clicked.current ?? el.value.length, el.value.length);
    clicked.current = null;
    el.focus();
    el.setSelectionRange(at, at);
  }, []);
  const value = p.store.getRow(p.id)?.values[p.col] ?? '';
  const common = { 'aria-label': p.label, 'aria-invalid': p.flagged || undefined, 'data-col': p.col, title: p.error };
  return (
    <div role="cell" style={cellStyle}>
      {editing ? (
        <input
          {...common}
          ref={focusInput}
          defaultValue={value}
          style={p.flagged ? inputErrorStyle : inputStyle}
          onChange={(e) => p.store.setCell(p.id, p.col, e.target.value)}
          onBlur={() => setEditing(false)}
        />
      ) : (
        <div
          {...common}
          role="textbox"
          tabIndex={0}
          style={p.flagged ? boxErrorStyle : boxStyle}
          onMouseDown={(e) => (clicked.current = textOffsetAt(e.currentTarget, e.clientX, e.clientY))}
          onFocus={() => setEditing(true)}
        >
          {value}
        </div>
      )}
    </div>
  );
});

/** The character offset of a point in the box's text (null when the point is not on its text). */
function textOffsetAt(box: HTMLElement, x: number, y: number): number | null {
  const d = document as Document & { caretPositionFromPoint?(x: number, y: number): { offsetNode: Node; offset: number } | null };
  const pos = d.caretPositionFromPoint
    ? d.caretPositionFromPoint(x, y)
    : (() => {
        const r = document.caretRangeFromPoint?.(x, y);
        return r ? { offsetNode: r.startContainer, offset: r.startOffset } : null;
      })();
  return pos && pos.offsetNode.nodeType === Node.TEXT_NODE && pos.offsetNode.parentNode === box ? pos.offset : null;
}

const RemoveButton = memo(function RemoveButton({ store, id, label }: { store: RosterStore; id: number; label: string }) {
  return (
    <div role="cell" style={cellStyle}>
      <Button type="text" size="small" danger aria-label={`删除${label}`} icon={<DeleteOutlined />} onClick={() => store.removeRow(id)} />
    </div>
  );
});

const RowView = memo(function RowView({ store, id, start, columns, minWidth }: { store: RosterStore; id: number; start: number; columns: string; minWidth: number }) {
  const r = useSyncExternalStore(
    (fn) => store.subscribeRow(id, fn),
    () => store.getChecks(id),
  );
  if (!r) return null;
  const label = store.label(id);
  const problems = [...Object.values(r.errors), ...(r.dup ? [r.dup] : []), ...(r.insured ? [r.insured] : [])].join('；');
  return (
    <div
      role="row"
      data-testid="roster-row"
      data-status={r.status}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
        transform: `translateY(${start}px)`,
        display: 'grid',
        gridTemplateColumns: columns,
        minWidth,
        contain: 'strict',
        borderBottom: '1px solid #f0f0f0',
        background: r.status === 'error' ? '#fff2f0' : r.status === 'duplicate' ? '#fffbe6' : undefined,
      }}
    >
      <div role="cell" style={{ ...cellStyle, color: '#595959' }}>
        {r.row ?? '新增'}
      </div>
      {store.columns.map((c) => (
        <Cell
          key={c.key}
          store={store}
          id={id}
          col={c.key}
          label={`${label}${c.title}`}
          error={r.errors[c.key]}
          flagged={!!r.errors[c.key] || (c.key === 'idCard' && !!(r.dup || r.insured))}
        />
      ))}
      <div role="cell" style={cellStyle}>
        <span
          title={problems || undefined}
          style={{ fontSize: 12, color: r.status === 'error' ? '#cf1322' : '#874d00', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {problems}
        </span>
      </div>
      <RemoveButton store={store} id={id} label={label} />
    </div>
  );
});

export function RosterEditor({ store, filter, height = 440 }: { store: RosterStore; filter?: RowStatus; height?: number }) {
  const version = useSyncExternalStore(store.subscribeStructure, store.getStructureVersion);
  // Re-filtered when rows are added, removed or loaded, or the tab changes — not on every keystroke.
  const ids = useMemo(() => store.ids(filter), [store, filter, version]);
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: ids.length, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 4 });
  const { template: columns, minWidth } = useMemo(() => gridColumns(store), [store]);

  return (
    <div role="table" aria-label="投保名单" aria-rowcount={ids.length} style={{ border: '1px solid #f0f0f0', borderRadius: 6, overflowX: 'auto' }}>
      <div role="row" style={{ display: 'grid', gridTemplateColumns: columns, minWidth, background: '#fafafa', height: 40, fontWeight: 500, borderBottom: '1px solid #f0f0f0' }}>
        <div role="columnheader" style={cellStyle}>行号</div>
        {store.columns.map((c) => (
          <div role="columnheader" key={c.key} style={cellStyle}>
            {c.rule?.required ? <span style={{ color: '#ff4d4f', marginRight: 2 }}>*</span> : null}
            {c.title}
          </div>
        ))}
        <div role="columnheader" style={cellStyle}>问题说明</div>
        <div role="columnheader" style={cellStyle}>操作</div>
      </div>
      <div ref={parent} data-testid="roster-scroll" style={{ height: ids.length ? Math.min(height, ids.length * ROW_HEIGHT + 2) : 120, overflow: 'auto', position: 'relative', contain: 'strict' }}>
        {ids.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filter ? '没有符合条件的行' : '名单为空：上传文件或点击“添加一行”录入'} />
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => (
              <RowView key={ids[v.index]} store={store} id={ids[v.index]} start={v.start} columns={columns} minWidth={minWidth} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
