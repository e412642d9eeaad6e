/**
 * Validate every schemas/**\/*.json: prints `file: path: reason` per issue and exits 1,
 * or prints `schemas OK: N files, M routes`.
 *   npx tsx scripts/validate-schemas.ts [rootDir]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateSchemaDir } from '../src/schema/load-node';
import { flattenRoutes } from '../src/schema/routes';
import { formatIssues, ROUTES_FILE } from '../src/schema/validate';
import type { RoutesFile } from '../src/schema/types';

const root = resolve(process.argv[2] ?? resolve(fileURLToPath(import.meta.url), '..', '..'));
const { files, issues } = validateSchemaDir(root);
const count = Object.keys(files).length + new Set(issues.filter((i) => !(i.file in files)).map((i) => i.file)).size;

if (issues.length > 0) {
  console.error(formatIssues(issues));
  console.error(`\n${issues.length} schema issue${issues.length > 1 ? 's' : ''} in ${count} files`);
  process.exit(1);
}
const routes = flattenRoutes((files[ROUTES_FILE] as RoutesFile).routes);
console.log(`schemas OK: ${count} files, ${routes.length} routes`);
