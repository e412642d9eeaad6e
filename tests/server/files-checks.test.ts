import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  TYPE_GROUPS,
  ROSTER_UPLOAD_TYPES,
  checkExtension,
  checkUpload,
  contentDispositionAttachment,
  extensionOf,
  safeMimeForDownload,
  sniff,
} from '../../src/server/files/checks.ts';
import { downloadHeaders } from '../../src/server/files/download.ts';
import { manyEntries, notAWorkbook, zipBombXlsx } from './zip-bomb.ts';

/** A minimal Windows PE: 'MZ' DOS header whose e_lfanew points at 'PE\0\0' + a COFF header. */
function fakeExe(): Buffer {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(0x14c, 0x84); // i386
  return b;
}

async function xlsxBuffer(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('名单').addRow(['姓名', '身份证号']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a7a8d10000000049454e44ae426082', 'hex');

describe('extension checks', () => {
  it('has exactly the spec groups', () => {
    expect(TYPE_GROUPS).toEqual({
      image: ['apng', 'avif', 'gif', 'ico', 'jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'png', 'svg', 'webp'],
      pdf: ['pdf'],
      office: ['doc', 'docx', 'xls', 'xlsx'],
    });
  });

  it('extensionOf is lower-case and path-aware', () => {
    expect(extensionOf('名单.XLSX')).toBe('xlsx');
    expect(extensionOf('C:\\fakepath\\a.b.Csv')).toBe('csv');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('trailing.')).toBe('');
    expect(extensionOf('dir.v2/noext')).toBe('');
  });

  it('accepts every extension of each group, case-insensitively', () => {
    for (const [group, exts] of Object.entries(TYPE_GROUPS)) {
      for (const e of exts) {
        expect(checkExtension(`file.${e.toUpperCase()}`, [group])).toEqual({ ok: true, ext: e });
        expect(checkExtension(`file.${e}`, [group])).toEqual({ ok: true, ext: e });
      }
    }
    expect(checkExtension('a.pdf', ['image']).ok).toBe(false);
    expect(checkExtension('a.png', ['office']).ok).toBe(false);
  });

  it('refuses a name without extension, and lists what is supported', () => {
    expect(checkExtension('roster', ['office'])).toEqual({ ok: false, message: '文件名缺少扩展名' });
    expect(checkExtension('roster.txt', ROSTER_UPLOAD_TYPES)).toEqual({ ok: false, message: '文件类型不支持，仅支持：xlsx、xls、csv' });
    expect(checkExtension('roster.CSV', ROSTER_UPLOAD_TYPES)).toEqual({ ok: true, ext: 'csv' });
  });
});

describe('content sniffing', () => {
  it('refuses a Windows .exe renamed to .xlsx', async () => {
    const r = await checkUpload({ fileName: '名单.xlsx', buffer: fakeExe(), groups: ROSTER_UPLOAD_TYPES });
    expect(r).toEqual({ ok: false, message: '文件内容与扩展名不符（实际为可执行文件）' });
  });

  it('accepts a real xlsx and refuses it renamed to .xls or .csv', async () => {
    const buf = await xlsxBuffer();
    expect(await checkUpload({ fileName: 'a.xlsx', buffer: buf, groups: ROSTER_UPLOAD_TYPES })).toMatchObject({ ok: true, ext: 'xlsx' });
    expect(await checkUpload({ fileName: 'a.xls', buffer: buf, groups: ROSTER_UPLOAD_TYPES })).toMatchObject({ ok: false });
    expect(await checkUpload({ fileName: 'a.csv', buffer: buf, groups: ROSTER_UPLOAD_TYPES })).toMatchObject({ ok: false });
    expect(await checkUpload({ fileName: 'a.docx', buffer: buf, groups: ['office'] })).toMatchObject({ ok: false });
  });

  it('refuses too large and empty files', async () => {
    expect(await checkUpload({ fileName: 'a.csv', buffer: Buffer.alloc(11 * 1024 * 1024, 0x41), groups: ROSTER_UPLOAD_TYPES })).toEqual({
      ok: false,
      message: '文件过大，最大 10 MB',
    });
    expect(await checkUpload({ fileName: 'a.csv', buffer: Buffer.alloc(0), groups: ROSTER_UPLOAD_TYPES })).toEqual({ ok: false, message: '文件为空' });
  });

  it('CSV must be text', async () => {
    expect(await sniff(Buffer.from('姓名,手机号\n张三,13800138000\n'), 'csv')).toMatchObject({ ok: true });
    expect(await sniff(Buffer.from([0x41, 0x00, 0x42, 0x00, 0x01, 0x02, 0x03]), 'csv')).toMatchObject({ ok: false });
  });

  it('images by magic, pdf by %PDF-', async () => {
    expect(await sniff(PNG, 'png')).toMatchObject({ ok: true, mime: 'image/png' });
    expect(await sniff(PNG, 'JPG')).toEqual({ ok: false, message: '文件内容与扩展名不符（实际为图片（PNG））' });
    expect(await sniff(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), 'pdf')).toMatchObject({ ok: true });
    expect(await sniff(PNG, 'pdf')).toMatchObject({ ok: false });
  });

  it('refuses SVG with <script> or on*= handlers, accepts a plain SVG', async () => {
    const ok = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>';
    expect(await checkUpload({ fileName: 'logo.svg', buffer: Buffer.from(ok), groups: ['image'] })).toMatchObject({ ok: true, ext: 'svg' });
    const script = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const handler = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>';
    for (const s of [script, handler]) {
      const r = await checkUpload({ fileName: 'x.svg', buffer: Buffer.from(s), groups: ['image'] });
      expect(r).toEqual({ ok: false, message: 'SVG 文件包含脚本或事件处理代码，出于安全原因不予接收' });
    }
    expect(await sniff(Buffer.from('<html><body>hi</body></html>'), 'svg')).toMatchObject({ ok: false });
  });
});

describe('OOXML packages and zip bombs', () => {
  const xlsx = (buffer: Buffer) => checkUpload({ fileName: '名单.xlsx', buffer, groups: ROSTER_UPLOAD_TYPES });

  it('refuses any zip renamed .xlsx or .docx that is not a workbook or document package', async () => {
    expect(await xlsx(notAWorkbook('plain'))).toEqual({ ok: false, message: '文件内容与扩展名不符（实际为普通压缩包，不是 Excel 表格）' });
    expect(await checkUpload({ fileName: '说明.docx', buffer: notAWorkbook('plain'), groups: ['office'] })).toEqual({
      ok: false,
      message: '文件内容与扩展名不符（实际为普通压缩包，不是 Word 文档）',
    });
    // A [Content_Types].xml that declares a workbook is not enough: the workbook part must be there.
    expect(await xlsx(notAWorkbook('declared-only'))).toEqual({
      ok: false,
      message: '文件已损坏：缺少工作簿部件（xl/workbook.xml）；请用 Excel 另存为 .xlsx 后重新上传',
    });
    expect(await xlsx(notAWorkbook('docx'))).toEqual({ ok: false, message: '文件内容与扩展名不符（实际为Word 文档（docx））' });
    expect(await checkUpload({ fileName: '说明.docx', buffer: notAWorkbook('docx'), groups: ['office'] })).toMatchObject({ ok: true, ext: 'docx' });
  });

  it('refuses a zip bomb by the sizes it declares, and by what it inflates to when they lie, before any parser opens it', async () => {
    const message = '文件解压后超过 100 MB（疑似压缩炸弹），已拒绝；请删除多余的工作表或内容后重新上传';
    const bomb = await zipBombXlsx(120);
    expect(bomb.honest.length).toBeLessThan(200 * 1024);
    expect(await xlsx(bomb.honest)).toEqual({ ok: false, message });
    expect(await xlsx(bomb.lying)).toEqual({ ok: false, message });
    // The same shape within the limit is a workbook.
    expect(await xlsx((await zipBombXlsx(1)).honest)).toMatchObject({ ok: true, ext: 'xlsx' });
  });

  it('refuses a package with more parts than any workbook has', async () => {
    expect(await xlsx(manyEntries(1000))).toEqual({
      ok: false,
      message: '文件内部包含 1002 个部件（最多 1000 个），不是正常的 Excel 表格；请用 Excel 另存为 .xlsx 后重新上传',
    });
  });
});

describe('download headers', () => {
  it('Content-Disposition has an ASCII fallback and a UTF-8 filename*', () => {
    expect(contentDispositionAttachment('参保名单 (6月).xlsx')).toBe(
      `attachment; filename="____ (6_).xlsx"; filename*=UTF-8''%E5%8F%82%E4%BF%9D%E5%90%8D%E5%8D%95%20%286%E6%9C%88%29.xlsx`,
    );
    expect(contentDispositionAttachment('a"b%c\r\n.csv')).toBe(`attachment; filename="a_b_c.csv"; filename*=UTF-8''a%22b%25c.csv`);
    expect(contentDispositionAttachment('C:\\fakepath\\名单.xlsx')).toMatch(/^attachment; filename="__.xlsx"; filename\*=UTF-8''%E5%90%8D%E5%8D%95\.xlsx$/);
  });

  it('never serves html/svg as active content', () => {
    expect(safeMimeForDownload('svg')).toBe('application/octet-stream');
    expect(safeMimeForDownload('svg', { imagePreview: true })).toBe('application/octet-stream');
    expect(safeMimeForDownload('html')).toBe('application/octet-stream');
    expect(safeMimeForDownload('png')).toBe('application/octet-stream');
    expect(safeMimeForDownload('png', { imagePreview: true })).toBe('image/png');
    expect(safeMimeForDownload('XLSX')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(downloadHeaders('a.svg', 'svg', { imagePreview: true })['Content-Disposition']).toMatch(/^attachment;/);
    expect(downloadHeaders('a.png', 'png', { imagePreview: true })['Content-Disposition']).toMatch(/^inline;/);
  });
});
