// @vitest-environment jsdom
import { afterAll, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { ConsoleTable, PAGINATION_LABELS } from '../../src/runtime/table';
import { currentLanguage, DEFAULT_LANGUAGE, i18n, LANGUAGES, paginationLabels, setLanguage } from '../../src/runtime/i18n';
import zhCN from '../../src/runtime/i18n/zh-CN';
import enUS from '../../src/runtime/i18n/en-US';
import { errorLine } from '../../src/runtime/fieldErrors';
import { useAntdDom } from './dom';

useAntdDom();
afterAll(async () => {
  await setLanguage('zh-CN');
});

const keys = (o: object, p = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`])).sort();

describe('i18n of the runtime chrome', () => {
  it('starts in Simplified Chinese; English is available with the same keys', () => {
    expect(DEFAULT_LANGUAGE).toBe('zh-CN');
    expect(currentLanguage()).toBe('zh-CN');
    expect(LANGUAGES.map((l) => l.key)).toEqual(['zh-CN', 'en-US']);
    expect(keys(enUS)).toEqual(keys(zhCN));
    expect(i18n.t('header.logout')).toBe('退出登录');
  });

  it('the pagination labels are the specification\'s (§9) in both languages', () => {
    expect(paginationLabels('zh-CN')).toEqual(PAGINATION_LABELS);
    expect(paginationLabels('en-US')).toEqual(PAGINATION_LABELS);
  });

  it('the console table follows the language and the choice is remembered', async () => {
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
    await act(async () => {
      await setLanguage('en-US');
    });
    expect(localStorage.getItem('lang')).toBe('en-US');
    await waitFor(() => expect(screen.getByText('Total 45 items')).toBeTruthy());
    expect(document.querySelector('.ant-pagination-options')?.textContent).toContain('30 / page');
    expect(document.querySelector('.ant-pagination-options-quick-jumper')?.textContent).toContain('Go to');
    expect(screen.getByTitle('Next Page')).toBeTruthy();
  });
});

describe('error summary lines name fields in the business\'s words', () => {
  const labels: Record<string, string> = { phone: '手机号', 'rows[0].name': '姓名' };
  const labelOf = (p: string) => labels[p];
  it('uses the label, 第 N 行 for roster rows, and never a raw key', () => {
    expect(errorLine({ field: 'phone', message: '该手机号未注册账号' }, labelOf)).toBe('手机号：该手机号未注册账号');
    expect(errorLine({ field: 'rows[0].name', message: '请填写姓名' }, labelOf)).toBe('第 1 行 姓名：请填写姓名');
    expect(errorLine({ field: 'rows[2].jobType', message: '工种不能超过 30 个字符' }, labelOf)).toBe('第 3 行：工种不能超过 30 个字符');
    expect(errorLine({ field: 'rows[0].idCard', message: '第 1 行：身份证号不正确' }, labelOf)).toBe('第 1 行：身份证号不正确');
    expect(errorLine({ field: 'code', message: '验证码错误或已过期' }, labelOf)).toBe('验证码错误或已过期');
    expect(errorLine({ field: 'Idempotency-Key', message: '格式不正确' }, labelOf)).not.toContain('Idempotency');
  });
});
