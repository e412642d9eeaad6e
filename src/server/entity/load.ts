/** Node loader: the entity registry from a directory's schemas/entities/*.json (throws on invalid files). */
import { join } from 'node:path';
import { loadSchemaFiles } from '../../schema/load-node.ts';
import { formatIssues, validateSchemas } from '../../schema/validate.ts';
import { buildEntityRegistry, type EntityRegistry } from '../../shared/entity/registry.ts';

export interface LoadedEntities {
  registry: EntityRegistry;
  /** every parsed schema file keyed by repo-relative path */
  files: Record<string, unknown>;
  migrationsDir: string;
}

/** Loads and validates rootDir/schemas (all kinds, so page references are checked too). */
export function loadEntities(rootDir: string, opts: { validate?: boolean } = {}): LoadedEntities {
  const { files, issues } = loadSchemaFiles(rootDir);
  const all = opts.validate === false ? issues : [...issues, ...validateSchemas(files, { unreadable: issues.map((i) => i.file) })];
  if (all.length) throw new Error(`Invalid schemas (${all.length}):\n${formatIssues(all)}`);
  return { registry: buildEntityRegistry(files), files, migrationsDir: join(rootDir, 'schemas', 'migrations') };
}
