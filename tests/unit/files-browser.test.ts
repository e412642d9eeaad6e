// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fileProblem } from '../../src/runtime/upload/FileUpload';
import { exportUrl, visibleColumns } from '../../src/runtime/table/ExportButton';
import { attachmentProblem, claimAttachmentAccept } from '../../src/shared/attachments';
import { getForm, getTable } from '../../src/schema/registry';

describe('claim attachment checks in the browser', () => {
  const spec = getForm('claim-report').fields.find((f) => f.name === 'attachmentIds')!;

  it('the claim form renders attachmentIds as an upload of images and PDFs without SVG, 10 MB each, 20 at most', () => {
    expect(spec.type).toBe('upload');
    expect(spec.upload).toEqual({ api: '/api/claim-attachments', accept: ['image', 'pdf'], exclude: ['svg'], maxSizeMb: 10 });
    expect(spec.rule?.maxItems).toBe(20);
  });

  it('checks type case-insensitively, refuses names without an extension, SVG, other types and oversize files', () => {
    const u = spec.upload!;
    expect(fileProblem(u, '现场.JPG', 1000)).toBeNull();
    expect(fileProblem(u, '发票.Pdf', 1000)).toBeNull();
    expect(fileProblem(u, 'photo', 1000)).toBe('文件名缺少扩展名');
    expect(fileProblem(u, 'logo.svg', 1000)).toMatch(/^不支持该文件类型，仅支持：apng、avif/);
    expect(fileProblem(u, 'setup.exe', 1000)).toMatch(/^不支持该文件类型/);
    expect(fileProblem(u, 'big.png', 10 * 1024 * 1024 + 1)).toBe('单个文件不能超过 10 MB');
    // The shared rule of the gateway says the same about the same files.
    expect(attachmentProblem('logo.svg', 1000)).toBe('不支持 SVG 图片，请上传照片（JPG、PNG 等）或 PDF');
    expect(attachmentProblem('big.png', 10 * 1024 * 1024 + 1)).toBe('单个文件不能超过 10 MB');
    expect(claimAttachmentAccept()).not.toContain('.svg');
  });
});

describe('list export request', () => {
  const claims = getTable('claims');

  it('takes the shown columns in their shown order (column settings applied)', () => {
    expect(visibleColumns(claims, {})).toEqual(['claimNo', 'personName', 'accidentDate', 'accidentType', 'amount', 'status', 'createdAt']);
    expect(visibleColumns(claims, { personName: { show: false }, status: { order: -1 } })).toEqual([
      'status',
      'claimNo',
      'accidentDate',
      'accidentType',
      'amount',
      'createdAt',
    ]);
  });

  it('sends the list’s filters and sort without paging, plus format and columns', () => {
    const url = new URL(exportUrl(claims, { current: 3, pageSize: 30, status: 'reported', sortField: 'amount', sortOrder: 'ascend' }, 'xlsx', ['claimNo', 'amount']), 'http://x');
    expect(url.pathname).toBe('/api/claims/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({ status: 'reported', sortField: 'amount', sortOrder: 'ascend', format: 'xlsx', columns: 'claimNo,amount' });
  });
});
