import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  /** CSS selectors of the elements found. */
  targets: string[];
}

/**
 * axe-core's violations of `tags` on the page's document, run in the page itself. axe is evaluated once
 * per document (a tour moving inside the console keeps it), not per check: @axe-core/playwright's
 * AxeBuilder evaluated its 560 kB twice per check (once to probe, once per frame), and in its default mode
 * opened a new page per check to merge the results of frames the console does not have.
 * Only violations are computed (`resultTypes`): the rules that pass are most of axe's time and nothing
 * here reads them.
 */
export async function axeViolations(page: Page, tags: string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (values) => {
    type Result = { violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run(c: Document, o: object): Promise<Result> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  }, tags);
}
