// @vitest-environment jsdom
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import type { ListColumn } from '../../src/runtime/table/listColumn';
import { loadSchemaFiles } from '../../src/schema/load-node';
import { orderColumns, resolveTable } from '../../src/schema/resolve';
import type { TableSchemaFile } from '../../src/schema/types';
import { buildEntityRegistry } from '../../src/shared/entity/registry';
import { ConsoleTable, suggestedColumnWidth } from '../../src/runtime/table';
import { setWindowSize, useAntdDom } from './dom';

useAntdDom();

const real = loadSchemaFiles(resolve(__dirname, '../..')).files;

/** The real schemas with one more field in an entity (as a configurator adds it). */
function withField(entity: string, key: string, field: object) {
  const files = structuredClone(real) as Record<string, any>;
  files[`schemas/entities/${entity}.json`].fields[key] = field;
  return { files, reg: buildEntityRegistry(files) };
}

describe('a field added to an entity that a table lists with "*"', () => {
  it('stands where "*" does: the last data column, right before 操作, or before the columns listed after "*"', () => {
    let checked = 0;
    for (const [file, data] of Object.entries(real)) {
      const t = data as TableSchemaFile;
      if (!file.startsWith('schemas/tables/') || !t.entity || !t.columns.includes('*')) continue;
      const { files, reg } = withField(t.entity, 'zzAdded', { type: 'string', label: '新字段' });
      const cols = resolveTable(files[file] as TableSchemaFile, reg).columns;
      const at = cols.findIndex((c) => c.dataIndex === 'zzAdded');
      const after = t.columns[t.columns.indexOf('*') + 1];
      if (after === undefined) expect(at, file).toBe(cols.length - 1);
      else expect(cols[at + 1].dataIndex, file).toBe(typeof after === 'string' ? after : (after as { field: string }).field);
      expect(cols[at].hideInTable, file).toBeUndefined();
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('never lands behind a column the page pins to the right; columns pinned left come first', () => {
    const { files, reg } = withField('order', 'remark', { type: 'string', label: '备注说明' });
    const page = files['schemas/tables/orders.json'] as TableSchemaFile;
    page.columns = ['orderNo', { field: 'payStatus', fixed: 'right' }, 'amount', { field: 'productName', fixed: 'left' }, '*'];
    const order = resolveTable(page, reg).columns.map((c) => c.dataIndex);
    expect(order[0]).toBe('productName');
    expect(order.slice(1, 3)).toEqual(['orderNo', 'amount']);
    expect(order.indexOf('remark')).toBe(order.length - 2);
    expect(order[order.length - 1]).toBe('payStatus');
    expect(orderColumns([{ fixed: 'right' as const, k: 1 }, { k: 2 }, { k: 3 }]).map((c) => c.k)).toEqual([2, 3, 1]);
  });

  it('renders before the 操作 column in a table wider than the window', async () => {
    setWindowSize(1440, 900);
    const { files, reg } = withField('insured-person', 'employeeNo', { type: 'string', label: '工号', maxLength: 20, search: 'contains' });
    const table = resolveTable(files['schemas/tables/insured-persons.json'] as TableSchemaFile, reg);
    // as TablePage builds them: the schema's columns, then the 操作 column pinned right
    const columns: ListColumn<Record<string, unknown>>[] = [
      ...table.columns.map((c) => ({ title: c.title, dataIndex: c.dataIndex, key: c.dataIndex, width: c.width ?? suggestedColumnWidth(c), fixed: c.fixed })),
      { title: '操作', key: '__actions', valueType: 'option', fixed: 'right', width: 180, render: () => [<a key="e">修改信息</a>] },
    ];
    const { container } = render(<ConsoleTable rowKey="id" search={false} columns={columns} dataSource={[{ id: 1, name: '张三', employeeNo: 'E-1' }]} />);
    await waitFor(() => expect(screen.getByText('E-1')).toBeTruthy());
    const heads = [...container.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent?.trim());
    expect(heads.slice(-2)).toEqual(['工号', '操作']);
    // wider than 1440 − 282 px: the table scrolls and keeps the 操作 column pinned (fixed: 'right')
    expect(container.querySelector<HTMLElement>('.ant-table-content table, .ant-table-body table')?.style.width).not.toBe('');
  });
});
