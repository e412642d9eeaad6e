import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { followSchemaEdits, type SchemaFollower } from '../../src/server/schema-reload.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the development gateway follows schema edits in its process (schema-reload.ts)', () => {
  let root: string;
  let follower: SchemaFollower | undefined;
  afterEach(() => {
    follower?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reloads once per burst of saved schema files, never for meta schemas or a migration alone, and once more for an edit made while reloading', async () => {
    root = mkdtempSync(join(tmpdir(), 'schema-reload-'));
    for (const d of ['entities', 'tables', 'meta', 'migrations']) mkdirSync(join(root, 'schemas', d), { recursive: true });
    let reloads = 0;
    let inReload = false;
    let overlapped = false;
    follower = followSchemaEdits(
      root,
      async () => {
        overlapped ||= inReload;
        inReload = true;
        reloads++;
        await pause(400);
        inReload = false;
      },
      100,
    );
    await pause(100); // the watcher is set up

    writeFileSync(join(root, 'schemas/meta/entity.schema.json'), '{}');
    writeFileSync(join(root, 'schemas/migrations/001-x.sql'), 'SELECT 1;');
    writeFileSync(join(root, 'schemas/entities/a.json.tmp-1'), '{}');
    await pause(500);
    expect(reloads).toBe(0);

    // A studio save: an entity, a table and a new folder's file within a few milliseconds.
    writeFileSync(join(root, 'schemas/entities/a.json'), '{}');
    writeFileSync(join(root, 'schemas/tables/a.json'), '{}');
    mkdirSync(join(root, 'schemas/details'));
    writeFileSync(join(root, 'schemas/details/a.json'), '{}');
    await expect.poll(() => reloads, { timeout: 5000 }).toBe(1);

    // Saved again while that reload runs: one more reload after it, never two at once.
    writeFileSync(join(root, 'schemas/entities/a.json'), '{"x":1}');
    await expect.poll(() => reloads, { timeout: 5000 }).toBe(2);
    await pause(700);
    expect(reloads).toBe(2);
    expect(overlapped).toBe(false);

    // Saved by replacing the file (an editor's safe write, the studio's temp file and rename), then again.
    for (const n of [3, 4]) {
      writeFileSync(join(root, 'schemas/details/.a.json.tmp'), `{"n":${n}}`);
      renameSync(join(root, 'schemas/details/.a.json.tmp'), join(root, 'schemas/details/a.json'));
      await expect.poll(() => reloads, { timeout: 5000 }).toBe(n);
    }
    writeFileSync(join(root, 'schemas/details/a.json'), '{}');
    await expect.poll(() => reloads, { timeout: 5000 }).toBe(5);
  });
});
