/** The repository's own entity schemas (schemas/ at the repo root), loaded and validated once per process. */
import { resolve } from 'node:path';
import { loadEntities, type LoadedEntities } from './load.ts';

/** The repository root: schemas/ lives here. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

let cached: LoadedEntities | undefined;

/** Parsed schema files are immutable configuration, not request state: caching them keeps the gateway stateless. */
export function repoEntities(): LoadedEntities {
  cached ??= loadEntities(REPO_ROOT);
  return cached;
}
