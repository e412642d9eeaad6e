/**
 * antd's box-sizing resets without the copies that change nothing (used by scripts/antd-static-style.tsx).
 *
 * Each antd component whose styles reset the font (form, input, select, picker, table, tabs …) emits four
 * rules for its class prefix P, e.g. for the table:
 *
 *   [class^="ant-table"],[class*=" ant-table"]{font-family:…;font-size:14px;box-sizing:border-box}
 *   [class^="ant-table"]::before,…::after{box-sizing:border-box}
 *   [class^="ant-table"] [class^="ant-table"],…{box-sizing:border-box}          ← nested
 *   [class^="ant-table"] [class^="ant-table"]::before,…::after{box-sizing:border-box}  ← nested
 *
 * A selector that ends in an attribute test cannot be looked up by class or tag, so Chromium tries every
 * one of them on every element it styles; on the order list the attribute rules were about half the
 * style time of a page of rows. The nested rules select a subset of what the first two select and set the
 * same value, so they are dropped — unless a rule setting another box-sizing would then win where it lost
 * before (or lose where it won): the nested copies are (0,2,0) specific, the simple ones (0,1,0), so for
 * each rule with another box-sizing value whose last compound's classes start with P, the outcome against
 * both is compared and P's copies are kept when it differs.
 */

const ATTR = String.raw`\[class\^="(ant-[\w-]+)"\]|\[class\*=" (ant-[\w-]+)"\]`;
const SIMPLE = new RegExp(`^(?:${ATTR})(::before|::after)?$`);
const NESTED = new RegExp(`^(?:${ATTR}) (?:${ATTR})(::before|::after)?$`);

interface Rule {
  start: number;
  end: number;
  selectors: string[];
  body: string;
}

type Specificity = [number, number, number];

function rulesOf(css: string): Rule[] {
  const rules: Rule[] = [];
  for (const m of css.matchAll(/([^{}]*)\{([^{}]*)\}/g)) {
    const lead = m[1].length - m[1].trimStart().length;
    rules.push({ start: m.index + lead, end: m.index + m[0].length, selectors: m[1].trim().split(/,(?![^(]*\))/), body: m[2] });
  }
  return rules;
}

/** (ids, classes/attributes/pseudo-classes, types/pseudo-elements); `:where()` counts nothing. */
export function specificity(selector: string): Specificity {
  const s = selector.replace(/:where\((?:[^()]|\([^()]*\))*\)/g, '').replace(/:(?:not|is)\(/g, ' (');
  const ids = s.match(/#[\w-]+/g)?.length ?? 0;
  const classes = (s.match(/\.[\w-]+/g)?.length ?? 0) + (s.match(/\[[^\]]*\]/g)?.length ?? 0) + (s.match(/(?<!:):(?!:)[\w-]+/g)?.length ?? 0);
  const types = (s.replace(/\[[^\]]*\]|[.#:][\w-]+/g, ' ').match(/(?:^|[\s>+~(])[a-z][\w-]*/gi)?.length ?? 0) + (s.match(/::[\w-]+/g)?.length ?? 0);
  return [ids, classes, types];
}

const compare = (a: Specificity, b: Specificity) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether rule R (specificity, position) wins over a reset of specificity `s` at position `at`. */
const beats = (r: Specificity, pos: number, s: Specificity, at: number) => {
  const c = compare(r, s);
  return c > 0 || (c === 0 && pos > at);
};

/** The prefix of a simple or nested reset selector and its pseudo-element ('' for the element). */
function resetOf(selector: string, pattern: RegExp): { prefix: string; pseudo: string } | undefined {
  const m = pattern.exec(selector);
  if (!m) return undefined;
  const groups = m.slice(1, -1).filter(Boolean);
  if (groups.some((g) => g !== groups[0])) return undefined;
  return { prefix: groups[0], pseudo: m[m.length - 1] ?? '' };
}

export function dropCoveredResets(css: string): { css: string; dropped: number } {
  const rules = rulesOf(css);
  const resetsBorderBox = (r: Rule) => /(?:^|;)box-sizing:border-box(?:;|$)/.test(r.body);
  // Simple resets present: "prefix|pseudo" → position of the last one.
  const simple = new Map<string, number>();
  for (const r of rules) {
    if (!resetsBorderBox(r)) continue;
    for (const sel of r.selectors) {
      const s = resetOf(sel, SIMPLE);
      if (s) simple.set(`${s.prefix}|${s.pseudo}`, r.start);
    }
  }
  // Nested rules that only set border-box and whose every selector has a simple counterpart.
  const candidates = rules.filter((r) => {
    if (r.body.replace(/;$/, '') !== 'box-sizing:border-box') return false;
    return r.selectors.every((sel) => {
      const n = resetOf(sel, NESTED);
      return n !== undefined && simple.has(`${n.prefix}|${n.pseudo}`);
    });
  });
  const prefixOf = (r: Rule) => resetOf(r.selectors[0], NESTED)!.prefix;
  // Rules that set another box-sizing: keep a prefix's nested copies where dropping them changes who wins.
  const kept = new Set<string>();
  for (const r of rules) {
    const other = /(?:^|;)box-sizing:(?!border-box)/.test(r.body);
    if (!other) continue;
    for (const sel of r.selectors) {
      const last = sel.split(/\s*[\s>+~]\s*/).pop() ?? '';
      const classes = [...last.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
      const pseudo = /::(?:before|after)$/.exec(sel)?.[0] ?? '';
      const spec = specificity(sel);
      for (const c of candidates) {
        const prefix = prefixOf(c);
        if (!classes.some((cls) => cls.startsWith(prefix))) continue;
        if (!c.selectors.some((s) => resetOf(s, NESTED)!.pseudo === pseudo)) continue;
        const nested = beats(spec, r.start, specificity(c.selectors[0]), c.start);
        if (nested !== beats(spec, r.start, [0, 1, 0], simple.get(`${prefix}|${pseudo}`)!)) kept.add(prefix);
      }
    }
  }
  const drop = candidates.filter((c) => !kept.has(prefixOf(c)));
  let out = '';
  let at = 0;
  for (const d of drop) {
    out += css.slice(at, d.start);
    at = d.end;
  }
  return { css: out + css.slice(at), dropped: drop.length };
}
