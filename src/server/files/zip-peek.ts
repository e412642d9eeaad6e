import { createInflateRaw, inflateRawSync } from 'node:zlib';

/**
 * Minimal read-only ZIP peek: list the central directory, read one small entry, measure what the
 * entries really inflate to. Enough to tell an OOXML package (xlsx/docx) from any zip and to refuse a
 * zip bomb before a parser opens it; not a general zip reader.
 */

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
/** A 32-bit size or offset of 0xFFFFFFFF (or an entry count of 0xFFFF) means ZIP64: never needed by a 10 MB file. */
const ZIP64_32 = 0xffffffff;
const ZIP64_16 = 0xffff;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function findEocd(buf: Buffer): number {
  const min = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  return -1;
}

/** Central-directory entries, or null when buf is not a readable zip (or a ZIP64 one). */
export function zipEntries(buf: Buffer): ZipEntry[] | null {
  if (buf.length < 22) return null;
  const eocd = findEocd(buf);
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === ZIP64_16 || p === ZIP64_32) return null;
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CEN_SIG) return null;
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const e: ZipEntry = {
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
    };
    if (e.compressedSize === ZIP64_32 || e.size === ZIP64_32 || e.localOffset === ZIP64_32) return null;
    entries.push(e);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The compressed bytes of an entry (located through its local header), or null when out of bounds. */
export function zipEntryData(buf: Buffer, entry: ZipEntry): Buffer | null {
  const p = entry.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOC_SIG) return null;
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + entry.compressedSize > buf.length) return null;
  return buf.subarray(start, start + entry.compressedSize);
}

/**
 * zlib's output chunk for inflating an entry whole: its declared size (bounded by maxBytes), so that the
 * usual entry comes out as one buffer instead of 16 kB chunks copied together at the end (about 60 ms
 * for a 50,000-row sheet). An entry larger than it declares still inflates, in more chunks.
 */
export const wholeChunk = (entry: ZipEntry, maxBytes: number): number => Math.max(64, Math.min(entry.size, maxBytes) + 1);

/** Content of one entry (stored or deflated, at most maxBytes uncompressed), or null. */
export function zipReadEntry(buf: Buffer, name: string, maxBytes = 1024 * 1024, entries = zipEntries(buf)): Buffer | null {
  const entry = entries?.find((e) => e.name === name);
  if (!entry || entry.size > maxBytes) return null;
  const data = zipEntryData(buf, entry);
  if (!data) return null;
  try {
    if (entry.method === 0) return Buffer.from(data);
    if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: maxBytes, chunkSize: wholeChunk(entry, maxBytes) });
  } catch {
    return null;
  }
  return null;
}

/** Output chunks of the size check: each is one trip from zlib's thread pool to the event loop and back. */
const MIN_CHUNK = 16 * 1024;
const MAX_CHUNK = 4 * 1024 * 1024;
/** Entries inflated at once (libuv's thread pool has four threads). */
const PARALLEL_ENTRIES = 4;

/**
 * Bytes an entry really inflates to, counted without keeping them (zlib's thread pool); stops past `limit`;
 * -1 when corrupt. In chunks as large as the entry declares (up to MAX_CHUNK): on a busy gateway every chunk
 * waits for a turn of the event loop, and a 10 MB sheet in 1 MB chunks took ten of them.
 */
function inflatedSize(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = createInflateRaw({ chunkSize: Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, limit + 1)) });
    let n = 0;
    inflate.on('data', (c: Buffer) => {
      n += c.length;
      if (n > limit) {
        inflate.destroy();
        resolve(n);
      }
    });
    inflate.on('end', () => resolve(n));
    inflate.on('error', () => resolve(-1));
    inflate.end(data);
  });
}

export interface ZipLimits {
  maxEntries: number;
  /** Total uncompressed bytes of all entries. */
  maxBytes: number;
}

export type ZipBounds = { ok: true; entries: ZipEntry[] } | { ok: false; reason: 'unreadable' | 'entries' | 'size' | 'method'; entries?: number };

/**
 * Whether a zip stays within the limits once inflated: the entry count and the declared sizes from the
 * central directory first (a bomb that declares its size is refused without inflating anything), then
 * every entry is inflated and counted, and stops at its declared size, so sizes that lie cost no more
 * than the limit. Nothing inflated is kept.
 */
export async function checkZipBounds(buf: Buffer, limits: ZipLimits): Promise<ZipBounds> {
  const entries = zipEntries(buf);
  if (!entries) return { ok: false, reason: 'unreadable' };
  if (entries.length > limits.maxEntries) return { ok: false, reason: 'entries', entries: entries.length };
  let declared = 0;
  for (const e of entries) {
    declared += e.size;
    if (declared > limits.maxBytes) return { ok: false, reason: 'size' };
    if (e.method !== 0 && e.method !== 8) return { ok: false, reason: 'method' };
  }
  const verdict = async (e: ZipEntry): Promise<ZipBounds | null> => {
    const data = zipEntryData(buf, e);
    if (!data) return { ok: false, reason: 'unreadable' };
    if (e.method === 0) return e.size === e.compressedSize ? null : { ok: false, reason: 'unreadable' };
    const actual = await inflatedSize(data, e.size);
    if (actual > e.size) return { ok: false, reason: 'size' };
    return actual === e.size ? null : { ok: false, reason: 'unreadable' };
  };
  // A few entries at a time, in order, each on its own thread of the pool. A refusal stops the later
  // entries from starting; every earlier one has started and is waited for, so the answer is the first
  // refused entry's, as when they were inflated one after another.
  let next = 0;
  const refused = new Map<number, ZipBounds>();
  const lane = async () => {
    while (refused.size === 0 && next < entries.length) {
      const i = next++;
      const v = await verdict(entries[i]);
      if (v) refused.set(i, v);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_ENTRIES, entries.length) }, lane));
  return refused.size ? refused.get(Math.min(...refused.keys()))! : { ok: true, entries };
}

const OOXML_MAIN: Record<'xlsx' | 'docx', string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
};

export type OoxmlPackage = { ok: true } | { ok: false; reason: 'no-content-types' | 'no-main-type' | 'no-main-part'; part?: string };

/**
 * Whether a zip is an OOXML package of the given kind: a `[Content_Types].xml` that declares the
 * workbook (xlsx) or document (docx) as its main part, and that part present in the zip.
 */
export function ooxmlPackage(buf: Buffer, ext: 'xlsx' | 'docx', entries = zipEntries(buf)): OoxmlPackage {
  const ct = zipReadEntry(buf, '[Content_Types].xml', 1024 * 1024, entries);
  if (!ct) return { ok: false, reason: 'no-content-types' };
  const text = ct.toString('utf8');
  const type = OOXML_MAIN[ext].replace(/[.+]/g, (c) => `\\${c}`);
  // <Override PartName="/xl/workbook.xml" ContentType="…main+xml"/>, attributes in either order.
  const override = new RegExp(`<Override\\b[^>]*?ContentType\\s*=\\s*["']${type}["'][^>]*>`).exec(text)?.[0];
  if (!override) return { ok: false, reason: 'no-main-type' };
  const part = /PartName\s*=\s*["']\/?([^"']+)["']/.exec(override)?.[1];
  if (!part) return { ok: false, reason: 'no-main-type' };
  let name = part;
  try {
    name = decodeURIComponent(part);
  } catch {
    /* not percent-encoded */
  }
  if (!entries?.some((e) => e.name.toLowerCase() === name.toLowerCase())) return { ok: false, reason: 'no-main-part', part: name };
  return { ok: true };
}
