import { describe, expect, it } from 'vitest';
import { dropCoveredResets, specificity } from '../../scripts/css-resets';

const P = (p: string) => `[class^="${p}"],[class*=" ${p}"]`;
const pseudo = (p: string) => `[class^="${p}"]::before,[class*=" ${p}"]::before,[class^="${p}"]::after,[class*=" ${p}"]::after`;
const nested = (p: string, after = '') =>
  [`[class^="${p}"] [class^="${p}"]`, `[class*=" ${p}"] [class^="${p}"]`, `[class^="${p}"] [class*=" ${p}"]`, `[class*=" ${p}"] [class*=" ${p}"]`].map((s) => s + after).join(',');
/** antd's four reset rules of a component that resets the font (see scripts/css-resets.ts). */
const family = (p: string) =>
  `${P(p)}{font-size:14px;box-sizing:border-box;}${pseudo(p)}{box-sizing:border-box;}${nested(p)}{box-sizing:border-box;}${nested(p, '::before')},${nested(p, '::after')}{box-sizing:border-box;}`;

describe("antd's box-sizing resets without their nested copies (scripts/css-resets.ts)", () => {
  it('drops the nested copies and keeps the simple resets and every other rule', () => {
    const css = `.a{color:red}${family('ant-table')}@media (max-width:575px){.b{margin:0}}${family('ant-form')}.c{box-sizing:border-box}`;
    const out = dropCoveredResets(css);
    expect(out.dropped).toBe(4);
    expect(out.css).toBe(`.a{color:red}${P('ant-table')}{font-size:14px;box-sizing:border-box;}${pseudo('ant-table')}{box-sizing:border-box;}@media (max-width:575px){.b{margin:0}}${P('ant-form')}{font-size:14px;box-sizing:border-box;}${pseudo('ant-form')}{box-sizing:border-box;}.c{box-sizing:border-box}`);
  });

  it('keeps nested copies that have no simple reset of their prefix, or that set more than box-sizing', () => {
    const lone = `${nested('ant-x')}{box-sizing:border-box;}`;
    expect(dropCoveredResets(lone).dropped).toBe(0);
    const more = `${P('ant-y')}{box-sizing:border-box;}${nested('ant-y')}{box-sizing:border-box;color:red;}`;
    expect(dropCoveredResets(more).dropped).toBe(0);
  });

  it("keeps a prefix's copies when a rule with another box-sizing would win without them", () => {
    // (0,1,0) after the simple reset, before the nested copy: the nested (0,2,0) copy wins today.
    const css = `${family('ant-picker')}.ant-picker-arrow{box-sizing:content-box}${family('ant-table')}`;
    const out = dropCoveredResets(css);
    expect(out.dropped).toBe(2);
    expect(out.css).toContain(nested('ant-picker'));
    expect(out.css).not.toContain(nested('ant-table'));
    // (0,2,0) after the nested copy wins today and still wins: the copies go.
    const later = `${family('ant-picker')}.ant-picker-dropdown .ant-picker-range-arrow{box-sizing:content-box}`;
    expect(dropCoveredResets(later).dropped).toBe(2);
  });

  it('counts specificity as selectors do, :where() as nothing', () => {
    expect(specificity('.ant-picker-dropdown .ant-picker-range-arrow')).toEqual([0, 2, 0]);
    expect(specificity('[class^="ant-table"] [class*=" ant-table"]::before')).toEqual([0, 2, 1]);
    expect(specificity(':where(.css-dev-only).ant-spin [class^="ant-spin"]')).toEqual([0, 2, 0]);
    expect(specificity('a:not(.b) > td::after')).toEqual([0, 1, 3]);
    expect(specificity('#id .a:hover')).toEqual([1, 2, 0]);
  });
});
