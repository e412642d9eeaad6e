import { describe, expect, it } from 'vitest';
import { glossaryVariants, textProblems } from '../e2e/vocabulary';

describe('the visible-text checks of the route tour', () => {
  it('read the words not to use from docs/glossary.md', () => {
    const words = glossaryVariants().map((v) => v.word);
    expect(words).toEqual(expect.arrayContaining(['发票退款', '申请退款', '申请发票退款', '退款申请', '投保批次', '案件号']));
    expect(words).not.toContain('—');
  });
  it('find a second term, a doubled label and an amount without separators', () => {
    expect(textProblems('订单 · 保费 ¥4,704.00 · 身份证号不正确')).toEqual([]);
    expect(textProblems('申请发票退款')).toEqual(expect.arrayContaining(['「申请发票退款」（用「退票申请」）']));
    expect(textProblems('身份证号：身份证号不正确')).toEqual(['重复的字段名：「身份证号：身份证号」']);
    expect(textProblems('姓名：请填写姓名')).toEqual(['重复的字段名：「姓名：请填写姓名」']);
    expect(textProblems('投保成功：3 人，保费 ¥4704.00')).toEqual(['金额没有千分位：「¥4704」']);
    expect(textProblems('余额 ¥128,560.00，保费 ¥350.00')).toEqual([]);
  });
});
