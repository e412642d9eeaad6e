import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_ANTD_COMPONENTS, antdStaticCss } from '../../scripts/antd-static-style';

const root = join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

/** The components (capitalised values, not types) each file imports from 'antd'. */
function antdImports(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/import\s+(?!type\b)\{([^}]+)\}\s+from\s+'antd'/g)) {
      for (const part of m[1].split(',')) {
        const name = part.trim().replace(/\s+as\s+\w+$/, '');
        if (/^[A-Z]/.test(name)) found.set(name, file.slice(root.length + 1));
      }
    }
  }
  return found;
}

describe("antd's static styles (scripts/antd-static-style.tsx)", () => {
  it('list every antd component the console imports, so none of them computes and inserts its styles at run time', () => {
    const listed = new Set<string>(CONSOLE_ANTD_COMPONENTS);
    const missing = [...antdImports()].filter(([name]) => !listed.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
    expect(antdImports().size).toBeGreaterThan(20);
  });

  it("hold the console's components in its theme, not every component antd has", () => {
    const css = antdStaticCss();
    // The runtime reads this rule to know which styles the file holds.
    expect(css).toMatch(/\.data-ant-cssinjs-cache-path\{content:"/);
    const holds = (classes: string[]) => classes.filter((cls) => css.includes(`${cls}{`) || css.includes(`${cls} `));
    const shown = ['.ant-table', '.ant-menu', '.ant-layout-sider', '.ant-pagination', '.ant-select', '.ant-picker', '.ant-badge', '.ant-tooltip', '.ant-modal', '.ant-formily-item'];
    expect(holds(shown)).toEqual(shown);
    expect(holds(['.ant-mentions', '.ant-carousel', '.ant-transfer', '.ant-tree-select', '.ant-color-picker', '.ant-tour'])).toEqual([]);
    // The console's primary colour (layouts/theme.ts), so the hashes match the runtime's.
    expect(css).toContain('#0958d9');
    // The box-sizing resets without their nested copies (scripts/css-resets.ts), the simple ones kept.
    expect(css).toContain('[class^="ant-table"],[class*=" ant-table"]{');
    expect(css).not.toContain('[class^="ant-table"] [class^="ant-table"]');
  });
});
