import { fileTypeFromBuffer } from 'file-type';
import { decodeText, looksLikeText } from './text-decode.ts';
import { checkZipBounds, ooxmlPackage } from './zip-peek.ts';
import { safeMimeForDownload } from './download.ts';
import { MAX_BYTES, MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES, tooLargeMessage } from './types.ts';
import { FILE_TYPE_GROUPS, type FileTypeGroup } from '../../utils/upload.ts';

export { contentDispositionAttachment, safeMimeForDownload, downloadHeaders, cleanFileName } from './download.ts';

/** The spec's upload type groups (§5), one list shared with the browser (src/utils/upload.ts). */
export const TYPE_GROUPS = FILE_TYPE_GROUPS;

export type TypeGroup = FileTypeGroup;

/** What a roster upload accepts (a group name or a bare extension may be used in `groups`). */
export const ROSTER_UPLOAD_TYPES: readonly string[] = ['xlsx', 'xls', 'csv'];

/** Lower-case extension of a file name without the dot; '' when there is none. */
export function extensionOf(name: string): string {
  const base = (name.split(/[/\\]/).pop() ?? '').trim();
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return '';
  return base.slice(dot + 1).toLowerCase();
}

/** Extensions allowed by a list of group names and/or bare extensions, in order, without repeats. */
export function allowedExtensions(groups: readonly string[]): string[] {
  const out: string[] = [];
  for (const g of groups) {
    const list: readonly string[] = g in TYPE_GROUPS ? TYPE_GROUPS[g as TypeGroup] : [g.toLowerCase().replace(/^\./, '')];
    for (const e of list) if (!out.includes(e)) out.push(e);
  }
  return out;
}

export type ExtensionCheck = { ok: true; ext: string } | { ok: false; message: string };

/** Case-insensitive extension check; a name without an extension is refused. */
export function checkExtension(name: string, groups: readonly string[]): ExtensionCheck {
  const ext = extensionOf(name);
  if (!ext) return { ok: false, message: '文件名缺少扩展名' };
  const allowed = allowedExtensions(groups);
  if (!allowed.includes(ext)) return { ok: false, message: `文件类型不支持，仅支持：${allowed.join('、')}` };
  return { ok: true, ext };
}

const JPEG = ['jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp'];
/** file-type results accepted for each extension (xlsx/docx 'zip' handled separately). */
const ACCEPT: Record<string, string[]> = {
  ...Object.fromEntries(JPEG.map((e) => [e, ['jpg']])),
  png: ['png', 'apng'],
  apng: ['apng', 'png'],
  gif: ['gif'],
  webp: ['webp'],
  avif: ['avif'],
  ico: ['ico', 'cur'],
  pdf: ['pdf', 'ai'],
  xls: ['cfb'],
  doc: ['cfb'],
};

const KIND: Record<string, string> = {
  exe: '可执行文件', elf: '可执行文件', mach: '可执行文件', dll: '可执行文件', msi: '安装包', apk: '安装包', deb: '安装包', rpm: '安装包',
  class: '可执行文件', wasm: '可执行文件', zip: '压缩包', rar: '压缩包', '7z': '压缩包', gz: '压缩包', bz2: '压缩包', xz: '压缩包', tar: '压缩包',
  pdf: 'PDF 文档', xlsx: 'Excel 表格（xlsx）', docx: 'Word 文档（docx）', pptx: 'PowerPoint 演示文稿', cfb: 'Office 97-2003 文档', xml: 'XML 文件',
  mp4: '视频', mov: '视频', mp3: '音频', wav: '音频',
};

function describe(ftExt: string): string {
  if (KIND[ftExt]) return KIND[ftExt];
  if (['png', 'apng', 'jpg', 'gif', 'webp', 'avif', 'ico', 'bmp', 'tif', 'heic', 'jxl'].includes(ftExt)) return `图片（${ftExt.toUpperCase()}）`;
  return `${ftExt} 文件`;
}

export type SniffResult = { ok: true; mime: string } | { ok: false; message: string };

const mismatch = (actual: string): SniffResult => ({ ok: false, message: `文件内容与扩展名不符（实际为${actual}）` });

/** SVG must be an SVG document without scripts, event handlers, javascript: URLs or entities. */
export function checkSvg(text: string): SniffResult {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (!/^<(\?xml|svg|!--|!DOCTYPE\s+svg)/i.test(head) || !/<svg[\s>]/i.test(text)) return mismatch('非 SVG 文件');
  if (/<script[\s>/]/i.test(text) || /[\s"'/]on[a-z]+\s*=/i.test(text) || /javascript\s*:/i.test(text) || /<!ENTITY/i.test(text) || /<foreignObject[\s>/]/i.test(text)) {
    return { ok: false, message: 'SVG 文件包含脚本或事件处理代码，出于安全原因不予接收' };
  }
  return { ok: true, mime: 'image/svg+xml' };
}

/** Check that the bytes belong to the extension's family (by magic numbers; text types by decoding). */
export async function sniff(buffer: Buffer, ext: string): Promise<SniffResult> {
  const e = ext.toLowerCase();
  const ft = await fileTypeFromBuffer(buffer).catch(() => undefined);
  const mime = safeMimeForDownload(e, { imagePreview: true });
  if (e === 'csv' || e === 'svg') {
    if (ft && !(e === 'svg' && ft.ext === 'xml')) return mismatch(describe(ft.ext));
    const { text } = decodeText(buffer);
    if (!looksLikeText(text)) return mismatch('二进制文件');
    return e === 'svg' ? checkSvg(text) : { ok: true, mime: 'text/csv' };
  }
  if (e === 'pdf' && buffer.subarray(0, 1024).includes('%PDF-')) return { ok: true, mime };
  if (!ft) return mismatch('未知格式');
  if (e === 'xlsx' || e === 'docx') return ZIP_FAMILY.has(ft.ext) ? checkOoxml(buffer, e, ft.ext, mime) : mismatch(describe(ft.ext));
  if (ACCEPT[e]?.includes(ft.ext)) return { ok: true, mime };
  return mismatch(describe(ft.ext));
}

/** What file-type may call a zip package (it guesses OOXML kinds from the first entries' names only). */
const ZIP_FAMILY: ReadonlySet<string> = new Set(['zip', 'xlsx', 'docx', 'pptx']);
const OOXML_KIND = { xlsx: 'Excel 表格', docx: 'Word 文档' } as const;
const RESAVE = { xlsx: '请用 Excel 另存为 .xlsx 后重新上传', docx: '请用 Word 另存为 .docx 后重新上传' } as const;

/**
 * An xlsx/docx is a zip: bounded once inflated (entry count, and sizes counted while inflating, so a zip
 * bomb is refused before any parser opens it), then an OOXML package of that kind — a
 * `[Content_Types].xml` declaring the workbook / document as its main part, and that part present.
 * Any other zip renamed .xlsx or .docx is refused.
 */
async function checkOoxml(buffer: Buffer, e: 'xlsx' | 'docx', guess: string, mime: string): Promise<SniffResult> {
  const bounds = await checkZipBounds(buffer, { maxEntries: MAX_ZIP_ENTRIES, maxBytes: MAX_UNZIPPED_BYTES });
  if (!bounds.ok) {
    if (bounds.reason === 'size') {
      return { ok: false, message: `文件解压后超过 ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB（疑似压缩炸弹），已拒绝；请删除多余的工作表或内容后重新上传` };
    }
    if (bounds.reason === 'entries') return { ok: false, message: `文件内部包含 ${bounds.entries} 个部件（最多 ${MAX_ZIP_ENTRIES} 个），不是正常的 ${OOXML_KIND[e]}；${RESAVE[e]}` };
    return { ok: false, message: `文件已损坏或压缩方式不受支持，无法读取；${RESAVE[e]}` };
  }
  const pkg = ooxmlPackage(buffer, e, bounds.entries);
  if (pkg.ok) return { ok: true, mime };
  const other = e === 'xlsx' ? 'docx' : 'xlsx';
  if (ooxmlPackage(buffer, other, bounds.entries).ok) return mismatch(describe(other));
  if (guess === 'pptx') return mismatch(describe('pptx'));
  if (pkg.reason === 'no-main-part') return { ok: false, message: `文件已损坏：缺少${e === 'xlsx' ? '工作簿' : '文档'}部件（${pkg.part}）；${RESAVE[e]}` };
  return mismatch(`普通压缩包，不是 ${OOXML_KIND[e]}`);
}

export interface UploadCheckInput {
  fileName: string;
  buffer: Buffer;
  /** Group names of TYPE_GROUPS and/or bare extensions, e.g. ['office'] or ROSTER_UPLOAD_TYPES. */
  groups: readonly string[];
  /** Default MAX_BYTES (10 MB). */
  maxBytes?: number;
}

export type UploadCheck = { ok: true; ext: string; mime: string } | { ok: false; message: string };

/** Full upload check: extension, size, emptiness, then content against the extension. */
export async function checkUpload({ fileName, buffer, groups, maxBytes = MAX_BYTES }: UploadCheckInput): Promise<UploadCheck> {
  const ec = checkExtension(fileName, groups);
  if (!ec.ok) return ec;
  if (buffer.length > maxBytes) return { ok: false, message: tooLargeMessage(maxBytes) };
  if (buffer.length === 0) return { ok: false, message: '文件为空' };
  const s = await sniff(buffer, ec.ext);
  return s.ok ? { ok: true, ext: ec.ext, mime: s.mime } : s;
}
