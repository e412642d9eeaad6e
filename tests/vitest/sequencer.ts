import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first, whichever project they belong to, so the two workers end together instead of
 * one finishing a long browser tour alone at the end. Vitest only knows file durations from an earlier
 * run on the same machine (CI starts from a clean clone), so the known slow files are listed here, slowest
 * first (from test-results/vitest.json of full runs); the others follow in vitest's own order.
 * A gateway file leads: the e2e files wait for the e2e set-up's gateways (tests/e2e/global-setup.ts) for
 * their first 15–25 s, which it runs meanwhile.
 */
const SLOWEST_FIRST = [
  'tests/server/entity-migrate.test.ts',
  'tests/e2e/studio.test.ts',
  'tests/e2e/a11y.test.ts',
  'tests/e2e/workbench.test.ts',
  'tests/e2e/list-state.test.ts',
  'tests/e2e/routes.test.ts',
  'tests/e2e/auto-insure.test.ts',
  'tests/server/upload-confirm-large.test.ts',
  'tests/e2e/list-state-tabs.test.ts',
  'tests/server/files-worker.test.ts',
  'tests/unit/console-table.test.tsx',
  'tests/server/durability.test.ts',
  'tests/e2e/console.test.ts',
  'tests/e2e/upload.test.ts',
  'tests/e2e/attendance-result.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const i = SLOWEST_FIRST.findIndex((f) => spec.moduleId.endsWith(f));
  return i < 0 ? SLOWEST_FIRST.length : i;
};

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: files not listed keep vitest's order after the listed ones.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
