/**
 * A roster file this gateway process has just stored, kept in memory for a few seconds so that its own
 * parse (the process pokes its parse queue right after the upload, so it usually claims it) starts at once
 * instead of reading the file back from the file storage. Only a shortcut: a parse in another process, or
 * after the few seconds, reads the storage as before, so no request depends on which process it reaches.
 */
const KEEP_MS = 15_000;
/** At most this many bytes kept at once; an upload beyond it is simply read back. */
const MAX_BYTES_KEPT = 64 * 1024 * 1024;

const kept = new Map<string, { buffer: Buffer; timer: NodeJS.Timeout }>();
let bytesKept = 0;

/** The file under `key` if this process still keeps it (it is then no longer kept). */
export function takeHandedOver(key: string): Buffer | undefined {
  const k = kept.get(key);
  if (!k) return undefined;
  kept.delete(key);
  clearTimeout(k.timer);
  bytesKept -= k.buffer.length;
  return k.buffer;
}

/** Keeps the file stored under `key` for this process's parse (when there is room). */
export function handOver(key: string, buffer: Buffer): void {
  if (kept.has(key) || bytesKept + buffer.length > MAX_BYTES_KEPT) return;
  const timer = setTimeout(() => takeHandedOver(key), KEEP_MS);
  timer.unref();
  kept.set(key, { buffer, timer });
  bytesKept += buffer.length;
}
