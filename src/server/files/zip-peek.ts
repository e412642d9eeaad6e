import { inflateRawSync } from 'node:zlib';

/**
 * Minimal read-only ZIP peek: list entry names and read one small entry, enough to tell an
 * OOXML document (xlsx/docx) from an arbitrary zip. Not a general zip reader.
 */

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;

interface Entry {
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

/** Central-directory entries, or null when buf is not a readable zip. */
export function zipEntries(buf: Buffer): Entry[] | null {
  if (buf.length < 22) return null;
  const eocd = findEocd(buf);
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CEN_SIG) return null;
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Content of one entry (stored or deflated, at most maxBytes uncompressed), or null. */
export function zipReadEntry(buf: Buffer, name: string, maxBytes = 1024 * 1024): Buffer | null {
  const entry = zipEntries(buf)?.find((e) => e.name === name);
  if (!entry || entry.size > maxBytes) return null;
  const p = entry.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOC_SIG) return null;
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  try {
    if (entry.method === 0) return Buffer.from(data);
    if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch {
    return null;
  }
  return null;
}

const OOXML_MAIN: Record<string, RegExp> = {
  xlsx: /application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet\.main\+xml/,
  docx: /application\/vnd\.openxmlformats-officedocument\.wordprocessingml\.document\.main\+xml/,
};

/** True when the zip's [Content_Types].xml declares the main part of the given OOXML type. */
export function isOoxml(buf: Buffer, ext: 'xlsx' | 'docx'): boolean {
  const ct = zipReadEntry(buf, '[Content_Types].xml');
  return !!ct && OOXML_MAIN[ext].test(ct.toString('utf8'));
}
