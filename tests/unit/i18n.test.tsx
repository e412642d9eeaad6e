// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { ConsoleTable, PAGINATION_LABELS } from '../../src/runtime/table';
import { DEFAULT_LANGUAGE, i18n, paginationLabels } from '../../src/runtime/i18n';
import zhCN from '../../src/runtime/i18n/zh-CN';
import { errorLine } from '../../src/runtime/fieldErrors';
import { useAntdDom } from './dom';

useAntdDom();

describe('the runtime chrome speaks Simplified Chinese only', () => {
  it('has one catalog, zh-CN, and no language to switch to (docs/decisions.md)', () => {
    expect(DEFAULT_LANGUAGE).toBe('zh-CN');
    expect(Object.keys(i18n.options.resources ?? {})).toEqual(['zh-CN']);
    expect(i18n.t('header.logout')).toBe(zhCN.header.logout);
    expect(i18n.exists('header.language')).toBe(false);
  });

  it("the pagination labels are the specification's (§9)", () => {
    expect(paginationLabels()).toEqual(PAGINATION_LABELS);
  });

  it('the console table shows the total in Chinese and the spec\'s pagination labels', async () => {
    const rows = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, name: `投保人${i + 1}` }));
    render(
      <ConsoleTable<{ id: number; name: string }>
        rowKey="id"
        search={false}
        columns={[{ title: '姓名', dataIndex: 'name' }]}
        request={async () => ({ data: rows.slice(0, 30), total: rows.length, success: true })}
      />,
    );
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
    expect(document.querySelector('.ant-pagination-options')?.textContent).toContain('30 / page');
    expect(document.querySelector('.ant-pagination-options-quick-jumper')?.textContent).toContain('Go to');
    expect(screen.getByTitle('Next Page')).toBeTruthy();
  });
});

describe('error summary lines name fields in the business\'s words', () => {
  const labels: Record<string, string> = { phone: '手机号', 'rows[0].name': '姓名' };
  const labelOf = (p: string) => labels[p];
  it('uses the label, 第 N 行 for roster rows, and never a raw key', () => {
    expect(errorLine({ field: 'phone', message: '账号已停用' }, labelOf)).toBe('手机号：账号已停用');
    expect(errorLine({ field: 'rows[0].name', message: '不能含有数字' }, labelOf)).toBe('第 1 行 姓名：不能含有数字');
    expect(errorLine({ field: 'rows[2].jobType', message: '工种不能超过 30 个字符' }, labelOf)).toBe('第 3 行：工种不能超过 30 个字符');
    expect(errorLine({ field: 'rows[0].idCard', message: '第 1 行：身份证号不正确' }, labelOf)).toBe('第 1 行：身份证号不正确');
    expect(errorLine({ field: 'code', message: '验证码错误或已过期' }, labelOf)).toBe('验证码错误或已过期');
    expect(errorLine({ field: 'Idempotency-Key', message: '格式不正确' }, labelOf)).not.toContain('Idempotency');
  });
  it('never repeats a label the message already names', () => {
    expect(errorLine({ field: 'phone', message: '该手机号未注册账号' }, labelOf)).toBe('该手机号未注册账号');
    expect(errorLine({ field: 'rows[0].name', message: '请填写姓名' }, labelOf)).toBe('第 1 行：请填写姓名');
    expect(errorLine({ field: 'idCard', message: '身份证号不正确' }, (p) => (p === 'idCard' ? '身份证号' : undefined))).toBe('身份证号不正确');
  });
});
