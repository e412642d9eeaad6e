// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadUrl, fileNameFromContentDisposition, fileNameFromUrl, saveData } from '../../src/utils/download';
import { copyText, getQueryValue } from '../../src/utils/clipboard';

let saved: Array<{ name: string; href: string; blob: Blob }>;
let blobs: Map<string, Blob>;

beforeEach(() => {
  saved = [];
  blobs = new Map();
  let n = 0;
  vi.stubGlobal('URL', Object.assign(URL, {
    createObjectURL: vi.fn((b: Blob) => {
      const u = `blob:test/${++n}`;
      blobs.set(u, b);
      return u;
    }),
    revokeObjectURL: vi.fn(),
  }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href, blob: blobs.get(this.href)! });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('file names', () => {
  it('takes the decoded last path segment without query', () => {
    expect(fileNameFromUrl('/api/files/%E4%BF%9D%E5%8D%95.pdf?token=1#x')).toBe('保单.pdf');
    expect(fileNameFromUrl('https://x.test/a/b/report.xlsx')).toBe('report.xlsx');
    expect(fileNameFromUrl('/a/b/')).toBe('');
  });
  it('prefers the RFC 5987 name of Content-Disposition', () => {
    expect(fileNameFromContentDisposition(`attachment; filename="a.xlsx"; filename*=UTF-8''%E8%AE%A2%E5%8D%95.xlsx`)).toBe('订单.xlsx');
    expect(fileNameFromContentDisposition('attachment; filename="quoted \\"x\\".csv"')).toBe('quoted "x".csv');
    expect(fileNameFromContentDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromContentDisposition('inline')).toBeUndefined();
    expect(fileNameFromContentDisposition(null)).toBeUndefined();
  });
});

describe('saving files', () => {
  it('saves in-memory data with the given name and type, then revokes the URL', async () => {
    vi.useFakeTimers();
    saveData(['a,b\n', '1,2\n'], '导出.csv', 'text/csv;charset=utf-8');
    expect(saved).toHaveLength(1);
    expect(saved[0].name).toBe('导出.csv');
    expect(saved[0].blob.type).toBe('text/csv;charset=utf-8');
    expect(await saved[0].blob.text()).toBe('a,b\n1,2\n');
    expect(document.querySelectorAll('a').length).toBe(0);
    vi.runAllTimers();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith(saved[0].href);
  });

  it('downloads a URL with same-origin credentials and the given headers', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response('PDF', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(downloadUrl('/api/files/policy%201.pdf?v=2', undefined, { Authorization: 'Bearer t' })).resolves.toBe('policy 1.pdf');
    expect(fetchMock).toHaveBeenCalledWith('/api/files/policy%201.pdf?v=2', { credentials: 'same-origin', headers: { Authorization: 'Bearer t' } });
    expect(saved[0].name).toBe('policy 1.pdf');
    expect(await saved[0].blob.text()).toBe('PDF');
  });

  it("uses the server's name, or the caller's, and rejects on HTTP errors", async () => {
    const cd = { 'Content-Disposition': "attachment; filename*=UTF-8''%E5%8F%91%E7%A5%A8.pdf" };
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => new Response('x', { status: 200, headers: cd })));
    await expect(downloadUrl('/api/invoices/1/file')).resolves.toBe('发票.pdf');
    await expect(downloadUrl('/api/invoices/1/file', 'mine.pdf')).resolves.toBe('mine.pdf');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('no', { status: 404 })));
    await expect(downloadUrl('/api/x')).rejects.toMatchObject({ name: 'DownloadError', status: 404 });
  });
});

describe('clipboard and query string', () => {
  it('uses navigator.clipboard when available', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    await expect(copyText('保单号 P001')).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('保单号 P001');
  });

  it('falls back to a textarea and execCommand', async () => {
    vi.stubGlobal('navigator', { clipboard: { writeText: vi.fn().mockRejectedValue(new Error('denied')) } });
    let copied = '';
    const exec = vi.fn(() => {
      copied = (document.activeElement as HTMLTextAreaElement | null)?.value ?? (document.querySelector('textarea')?.value ?? '');
      return true;
    });
    Object.defineProperty(document, 'execCommand', { value: exec, configurable: true });
    await expect(copyText('abc')).resolves.toBe(true);
    expect(exec).toHaveBeenCalledWith('copy');
    expect(copied).toBe('abc');
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('reads query values, null when absent', () => {
    expect(getQueryValue('id', '?id=12&name=%E5%BC%A0')).toBe('12');
    expect(getQueryValue('name', 'id=12&name=%E5%BC%A0')).toBe('张');
    expect(getQueryValue('x', '?id=1')).toBeNull();
    window.history.replaceState(null, '', '/p?from=mail');
    expect(getQueryValue('from')).toBe('mail');
  });
});
