/** The entity schemas a gateway runs on: the repository's own (schemas/ at the repo root) or another folder's. */
import { resolve } from 'node:path';
import { loadEntities, type LoadedEntities } from './load.ts';

/** The repository root: schemas/ lives here. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

const cache = new Map<string, LoadedEntities>();

/**
 * The loaded and validated schemas under `root`/schemas. The repository's own are read once per process
 * (parsed schema files are immutable configuration, not request state: caching them keeps the gateway
 * stateless); another folder (a configurator's copy, a test's) is read again on each call, since its
 * files may have changed since — a gateway reads it once at start and keeps it in app.deps.entities.
 */
export function entitiesAt(root: string = REPO_ROOT): LoadedEntities {
  const key = resolve(root);
  if (key !== REPO_ROOT) return loadEntities(key);
  let hit = cache.get(key);
  if (!hit) cache.set(key, (hit = loadEntities(key)));
  return hit;
}

/** Reads the repository's schemas again at the next call: the development gateway's reload after an edit (main.ts). */
export function forgetRepoEntities(): void {
  cache.clear();
}

/** The repository's own schemas (entitiesAt(REPO_ROOT)). */
export function repoEntities(): LoadedEntities {
  return entitiesAt(REPO_ROOT);
}
