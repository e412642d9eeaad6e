/**
 * The visible-text checks of the route tour (a11y.test.ts): one vocabulary (docs/glossary.md), no
 * doubled field labels, money with thousands separators. Pure functions over a page's text.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Words the glossary says not to use (its second column), each with the term to use instead. */
export function glossaryVariants(file = resolve(import.meta.dirname, '../../docs/glossary.md')): Array<{ word: string; use: string }> {
  const out: Array<{ word: string; use: string }> = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1] || cells[1] === '用词' || /^-+$/.test(cells[1])) continue;
    for (const word of cells[2].split('、').map((w) => w.trim())) if (word && word !== '—') out.push({ word, use: cells[1] });
  }
  return out;
}

/** A label said twice: 「身份证号：身份证号不正确」, 「姓名：请填写姓名」. */
const DOUBLED = /(\p{Script=Han}{2,8})：(?:请填写|请选择|请输入)?\1/u;
/** An amount of 1,000 or more without thousands separators: ¥4704.00. */
const BARE_AMOUNT = /¥\s?-?\d{4,}/;

/** What is wrong with a page's visible text (empty when nothing). */
export function textProblems(text: string, variants = glossaryVariants()): string[] {
  const out: string[] = [];
  for (const { word, use } of variants) if (text.includes(word)) out.push(`「${word}」（用「${use}」）`);
  const doubled = DOUBLED.exec(text);
  if (doubled) out.push(`重复的字段名：「${doubled[0]}」`);
  const bare = BARE_AMOUNT.exec(text);
  if (bare) out.push(`金额没有千分位：「${bare[0]}」`);
  return out;
}
