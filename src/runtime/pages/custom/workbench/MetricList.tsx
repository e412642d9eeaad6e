import type { ReactNode } from 'react';
import { theme } from 'antd';

export interface MetricItem {
  key: string;
  /** Shown before the title (e.g. the plan's colour in the pie). */
  avatar?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** At the end of the row (a count or an amount, linked to its list). */
  extra: ReactNode;
}

/**
 * The workbench's short lists (to-dos, plans): a title and description per row with its figure at the end,
 * drawn like antd's List item. antd's List brings its Pagination, and that the Select of the page-size
 * changer, into the workbench's first load for lists of a few rows that never page.
 */
export function MetricList({ items, testId }: { items: MetricItem[]; testId?: string }) {
  const { token } = theme.useToken();
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid={testId}>
      {items.map((it, i) => (
        <li
          key={it.key}
          data-testid="metric-item"
          style={{ display: 'flex', alignItems: 'center', gap: 16, padding: `${token.paddingSM}px 0`, borderTop: i ? `1px solid ${token.colorSplit}` : undefined }}
        >
          {it.avatar}
          <div style={{ flex: 1, minWidth: 0 }}>
            <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight }}>{it.title}</div>
            {it.description !== undefined && <div style={{ color: token.colorTextDescription, fontSize: token.fontSize, lineHeight: token.lineHeight }}>{it.description}</div>}
          </div>
          <div>{it.extra}</div>
        </li>
      ))}
    </ul>
  );
}
