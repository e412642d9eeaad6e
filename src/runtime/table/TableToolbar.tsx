import { memo, type ReactNode } from 'react';
import { Button, Checkbox, Divider, Dropdown, Popover, Space, Tooltip } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { inSetOrder, moveColumn, type ColumnsStateMap } from './columnsState';

/** Row heights of the table (antd's sizes): 宽松 is antd's default. */
export type Density = 'large' | 'middle' | 'small';
const DENSITIES: Array<{ key: Density; label: string }> = [
  { key: 'large', label: '宽松' },
  { key: 'middle', label: '中等' },
  { key: 'small', label: '紧凑' },
];

export interface SettingsColumn {
  key: string;
  title: ReactNode;
  /** Fixed columns (操作) keep their place: they can be hidden, not moved. */
  fixed?: boolean;
}

interface ColumnSettingsProps {
  columns: SettingsColumn[];
  value: ColumnsStateMap;
  onChange: (value: ColumnsStateMap) => void;
}

/** 列设置: show or hide each column (列展示 for all), move it up or down, 重置 to the page's columns. */
function ColumnSettings({ columns, value, onChange }: ColumnSettingsProps) {
  const shown = columns.filter((c) => value[c.key]?.show !== false).length;
  const movable = columns.filter((c) => !c.fixed).map((c) => c.key);
  const ordered = inSetOrder(columns, (c) => c.key, value);
  const setShow = (key: string, show: boolean) => onChange({ ...value, [key]: { ...value[key], show } });
  const setAll = (show: boolean) => onChange(Object.fromEntries(columns.map((c) => [c.key, { ...value[c.key], show }])));
  const title = (c: SettingsColumn) => (typeof c.title === 'string' ? c.title : c.key);
  // Up and down move past the shown columns (moveColumn): the first and last shown cannot go further.
  const shownMovable = ordered.filter((o) => !o.fixed && value[o.key]?.show !== false);
  return (
    <div style={{ minWidth: 200 }} data-testid="column-settings">
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', paddingBottom: 8, borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
        <Checkbox indeterminate={shown > 0 && shown < columns.length} checked={shown === columns.length} onChange={(e) => setAll(e.target.checked)}>
          列展示
        </Checkbox>
        <Button type="link" size="small" onClick={() => onChange({})}>
          重置
        </Button>
      </div>
      <ul style={{ listStyle: 'none', margin: 0, padding: '8px 0 0', maxHeight: 360, overflowY: 'auto' }}>
        {ordered.map((c) => {
          const at = movable.indexOf(c.key);
          const order = shownMovable.indexOf(c);
          return (
            <li key={c.key} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8, padding: '2px 0' }}>
              <Checkbox checked={value[c.key]?.show !== false} onChange={(e) => setShow(c.key, e.target.checked)}>
                {c.title}
              </Checkbox>
              {at >= 0 && (
                <span>
                  <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={`上移 ${title(c)}`} disabled={order <= 0} onClick={() => onChange(moveColumn(movable, value, c.key, -1))} />
                  <Button type="text" size="small" icon={<ArrowDownOutlined />} aria-label={`下移 ${title(c)}`} disabled={order < 0 || order === shownMovable.length - 1} onClick={() => onChange(moveColumn(movable, value, c.key, 1))} />
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export interface TableToolbarProps {
  title?: ReactNode;
  /** The page's buttons (新增, 导出 …), before the table's own. */
  actions?: ReactNode;
  onReload: () => void;
  density: Density;
  onDensity: (d: Density) => void;
  columns: SettingsColumn[];
  columnsState: ColumnsStateMap;
  onColumnsState: (value: ColumnsStateMap) => void;
}

const BAR = { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 16, padding: '16px 0', flexWrap: 'wrap' } as const;
const TITLE = { fontSize: 16, fontWeight: 500, lineHeight: '24px', color: 'rgba(0,0,0,0.88)' } as const;

/** Above a list's table: its title, the page's buttons, then 刷新, 密度 and 列设置 (drawn again only when they change). */
export const TableToolbar = memo(function TableToolbar({ title, actions, onReload, density, onDensity, columns, columnsState, onColumnsState }: TableToolbarProps) {
  return (
    <div style={BAR} className="console-table-toolbar">
      <div style={TITLE}>{title}</div>
      <Space size={4} wrap>
        {actions}
        {actions ? <Divider type="vertical" /> : null}
        <Tooltip title="刷新">
          <Button type="text" icon={<ReloadOutlined />} aria-label="刷新" onClick={onReload} />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{ items: DENSITIES, selectable: true, selectedKeys: [density], onClick: ({ key }) => onDensity(key as Density) }}
        >
          <Tooltip title="密度">
            <Button type="text" icon={<ColumnHeightOutlined />} aria-label="密度" />
          </Tooltip>
        </Dropdown>
        <Popover trigger="click" placement="bottomRight" arrow={false} content={<ColumnSettings columns={columns} value={columnsState} onChange={onColumnsState} />}>
          <Tooltip title="列设置">
            <Button type="text" icon={<SettingOutlined />} aria-label="列设置" />
          </Tooltip>
        </Popover>
      </Space>
    </div>
  );
});
