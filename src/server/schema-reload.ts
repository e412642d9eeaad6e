import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/**
 * Development (`npm run dev`): the gateway follows edits of schemas/ in its own process. A saved schema
 * file (by hand or from the studio) closes the running gateway and starts it again on the new files:
 * validated, migrated, served. That takes about 0.7 s and 1 core-second on the demo data directory,
 * where restarting the process under `tsx watch` took 4 s and 6.6 (loading every module again and
 * opening the data directory in a new PGlite). Code edits still restart the process (tsx watch).
 *
 * Only entity, table, form, detail and route files count (`*.json` outside schemas/meta, whose meta
 * schemas are code: imported, so tsx watch restarts on them). A migration file alone does not reload:
 * written by hand before its entity edit, it would run against the old schemas; the studio writes both
 * at once, and one reload, after the edits have paused for `delayMs`, applies them together.
 *
 * Each folder is watched on its own (a new folder is picked up by its parent's event): Node 20's
 * recursive `fs.watch` on Linux stops reporting a file once an editor has replaced it by a rename
 * (`sed -i`, an editor's safe write, the studio's own temp-file-then-rename), and so misses every later save.
 */
export interface SchemaFollower {
  close(): void;
}

export function followSchemaEdits(root: string, reload: () => Promise<void>, delayMs = 200): SchemaFollower {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true; // edited while reloading: once more after this one, on the newest files
      return;
    }
    running = reload()
      .catch((err: unknown) => console.error(err))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const watchers = new Map<string, FSWatcher>();
  const onEvent = (_event: string, file: string | Buffer | null): void => {
    sync(); // a folder made or removed under schemas/
    if (!file || !String(file).endsWith('.json')) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  };
  /** Watches schemas/ and every folder under it but meta/, and only those. */
  const sync = (): void => {
    const dirs = new Set<string>();
    const walk = (dir: string): void => {
      dirs.add(dir);
      for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !(dir === top && e.name === 'meta')) walk(join(dir, e.name));
    };
    try {
      walk(top);
    } catch {
      // a folder removed while walking: the event that follows walks again
    }
    for (const [dir, w] of watchers) if (!dirs.has(dir)) (w.close(), watchers.delete(dir));
    for (const dir of dirs) if (!watchers.has(dir)) watchers.set(dir, watch(dir, (event, file) => onEvent(event, file)).on('error', () => undefined));
  };
  const top = join(root, 'schemas');
  sync();
  return {
    close() {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
