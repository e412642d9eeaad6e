/**
 * Node only: writes a file whole or not at all. The bytes go to a temporary file of this process next to
 * it, then take its name in one rename, so a process that starts at the same time (a gateway, a test
 * file, the build) reads the old file, the new one or none, never a part. The folder is made if missing.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeWhole(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, file);
}
