// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { cellText, schemaCellRender } from '../../src/runtime/table/cells';
import type { TableColumn } from '../../src/schema/types';
import { useAntdDom } from './dom';

const copied: string[] = [];
vi.mock('copy-to-clipboard', () => ({ default: (text: string) => (copied.push(text), true) }));

useAntdDom();

const show = (node: ReactNode) => render(<MemoryRouter>{node}</MemoryRouter>);

describe('list cells drawn by the page (what ProTable’s read-only fields showed)', () => {
  it('formats dates, date-times, numbers and empty values', () => {
    expect(cellText('2026-11-26T02:30:02', 'dateTime')).toBe('2026-11-26 02:30:02');
    expect(cellText('2026-11-26', 'date')).toBe('2026-11-26');
    expect(cellText(null, 'dateTime')).toBe('-');
    expect(cellText('', 'text')).toBe('-');
    show(<>{cellText(12345, 'digit')}</>);
    expect(screen.getByText('12,345')).toBeTruthy();
  });

  it('shows an option with a status as antd’s status badge, and one without as its label', () => {
    const valueEnum = { unpaid: { text: '待支付', status: 'Warning' }, paid: { text: '已支付' } };
    const { container } = show(
      <>
        {cellText('unpaid', 'select', valueEnum)}
        {cellText('paid', 'select', valueEnum)}
      </>,
    );
    expect(container.querySelector('.ant-badge-status-warning')).not.toBeNull();
    expect(screen.getByText('待支付')).toBeTruthy();
    expect(screen.getByText('已支付').closest('.ant-badge')).toBeNull();
  });

  it('links a copyable order number and copies it with the 复制 button', () => {
    const column: TableColumn = { title: '订单号', dataIndex: 'orderNo', link: '/orders/:id', copyable: true };
    const row = { id: 7, orderNo: 'OD2026112600011' };
    show(<>{schemaCellRender(column)(row.orderNo, row)}</>);
    expect(screen.getByRole('link', { name: 'OD2026112600011' }).getAttribute('href')).toBe('/orders/7');
    fireEvent.click(screen.getByRole('button', { name: '复制' }));
    expect(copied).toEqual(['OD2026112600011']);
    expect(screen.getByRole('button', { name: '已复制' })).toBeTruthy();
  });

  it('shows money in ¥ and a page’s own renderer', () => {
    show(
      <>
        {schemaCellRender({ title: '金额', dataIndex: 'amount', valueType: 'money' })(null, { amount: 3024 })}
        {schemaCellRender({ title: '状态', dataIndex: 'status' }, (v) => <b>{`状态 ${String(v)}`}</b>)(null, { status: 1 })}
      </>,
    );
    expect(screen.getByText('¥3,024.00')).toBeTruthy();
    expect(screen.getByText('状态 1')).toBeTruthy();
  });
});
