/**
 * Hostile .xlsx files for the upload checks: a zip bomb (a sheet that inflates to far more than the
 * upload limit, built by deflating a repeated chunk without ever holding it) and plain zips renamed .xlsx.
 */
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

interface ZipPart {
  name: string;
  data: Buffer;
  /** Uncompressed size and CRC of `data` (deflated). */
  size: number;
  crc: number;
}

/** A deflated part whose content is `chunk` repeated `times` times (never held in memory whole). */
async function repeatedPart(name: string, head: string, chunk: string, times: number, tail: string): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((r) => deflate.on('end', r));
  let crc = 0;
  let size = 0;
  const write = async (b: Buffer) => {
    crc = crc32(b, crc);
    size += b.length;
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(Buffer.from(head));
  const c = Buffer.from(chunk.repeat(Math.max(1, Math.floor((1 << 20) / chunk.length))));
  let left = times * Buffer.byteLength(chunk);
  while (left > 0) {
    const b = left >= c.length ? c : c.subarray(0, left);
    await write(b);
    left -= b.length;
  }
  await write(Buffer.from(tail));
  deflate.end();
  await done;
  return { name, data: Buffer.concat(out), size, crc };
}

export function part(name: string, text: string): ZipPart {
  const raw = Buffer.from(text);
  return { name, data: deflateRawSync(raw), size: raw.length, crc: crc32(raw) };
}

/** The fields a local and a central header share (the central header's stand 2 bytes further on). */
function headerFields(b: Buffer, at: number, p: ZipPart, size: number, nameLength: number): Buffer {
  b.writeUInt16LE(20, at + 4); // version needed
  b.writeUInt16LE(0x0800, at + 6); // UTF-8 names
  b.writeUInt16LE(8, at + 8); // deflated
  b.writeUInt32LE(p.crc >>> 0, at + 14);
  b.writeUInt32LE(p.data.length, at + 18);
  b.writeUInt32LE(size, at + 22);
  b.writeUInt16LE(nameLength, at + 26);
  return b;
}

/** A zip of deflated parts; `declare` overrides the uncompressed size written in the headers (a lying zip). */
export function zipOf(parts: ZipPart[], declare: (p: ZipPart) => number = (p) => p.size): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    headerFields(lh, 0, p, declare(p), name.length);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4); // version made by
    headerFields(ch, 2, p, declare(p), name.length);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, p.data);
    central.push(ch, name);
    offset += 30 + name.length + p.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
export const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
export const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="名单" sheetId="1" r:id="rId1"/></sheets></workbook>`;
export const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

/**
 * A well-formed .xlsx whose one sheet inflates to about `mb` megabytes (one cell holding a run of the
 * same letter, so 1,000 MB deflate to about 1 MB), as it declares its sizes (`honest`) and declaring
 * the sheet as 1 KB (`lying`).
 */
export async function zipBombXlsx(mb: number): Promise<{ honest: Buffer; lying: Buffer }> {
  const sheet = await repeatedPart(
    'xl/worksheets/sheet1.xml',
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>',
    'A',
    mb * 1024 * 1024,
    '</t></is></c></row></sheetData></worksheet>',
  );
  const parts = [part('[Content_Types].xml', CONTENT_TYPES), part('_rels/.rels', RELS), part('xl/workbook.xml', WORKBOOK), part('xl/_rels/workbook.xml.rels', WORKBOOK_RELS), sheet];
  return { honest: zipOf(parts), lying: zipOf(parts, (p) => (p === sheet ? 1024 : p.size)) };
}

/** Zips that are not workbooks, to be renamed .xlsx: any archive, and one that declares a workbook it lacks. */
export function notAWorkbook(kind: 'plain' | 'declared-only' | 'docx'): Buffer {
  if (kind === 'plain') return zipOf([part('readme.txt', 'hello'), part('data/a.csv', 'a,b\n1,2\n')]);
  if (kind === 'declared-only') return zipOf([part('[Content_Types].xml', CONTENT_TYPES), part('_rels/.rels', RELS)]);
  const ct = CONTENT_TYPES.replace('/xl/workbook.xml', '/word/document.xml').replace('spreadsheetml.sheet.main', 'wordprocessingml.document.main');
  return zipOf([part('[Content_Types].xml', ct), part('word/document.xml', '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>')]);
}

/** Many tiny parts: a package with more entries than any workbook has. */
export function manyEntries(n: number): Buffer {
  const parts = [part('[Content_Types].xml', CONTENT_TYPES), part('xl/workbook.xml', WORKBOOK)];
  for (let i = 0; i < n; i++) parts.push(part(`xl/media/p${i}.xml`, '<x/>'));
  return zipOf(parts);
}
