import { describe, expect, it } from 'vitest';
import { FILE_TYPE_GROUPS, acceptAttr, checkFileType, extensionOf } from '../../src/utils/upload';
import { isPresent } from '../../src/utils/present';

describe('upload file types', () => {
  it('has exactly the spec groups', () => {
    expect(FILE_TYPE_GROUPS).toEqual({
      image: ['apng', 'avif', 'gif', 'ico', 'jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'png', 'svg', 'webp'],
      pdf: ['pdf'],
      office: ['doc', 'docx', 'xls', 'xlsx'],
    });
  });

  it('reads the extension case-insensitively; hidden files and dot-less names have none', () => {
    expect(extensionOf('Photo.JPG')).toBe('jpg');
    expect(extensionOf('a.b.tar.XLSX')).toBe('xlsx');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('report.')).toBe('');
    expect(extensionOf('dir.v2/README')).toBe('');
    expect(extensionOf('C:\\files\\scan.Pdf')).toBe('pdf');
  });

  it('checks a file against groups', () => {
    expect(checkFileType('scan.PDF', ['pdf'])).toBe(true);
    expect(checkFileType('scan.pdf', ['image'])).toBe(false);
    expect(checkFileType('roster.Xlsx', ['office', 'pdf'])).toBe(true);
    expect(checkFileType('pic.jfif', ['image'])).toBe(true);
    expect(checkFileType('pdf', ['pdf'])).toBe(false);
    expect(checkFileType('.pdf', ['pdf'])).toBe(false);
    expect(checkFileType('x.exe', ['image', 'pdf', 'office'])).toBe(false);
    expect(checkFileType('x.pdf', [])).toBe(false);
  });

  it('builds the accept attribute', () => {
    expect(acceptAttr(['pdf', 'office'])).toBe('.pdf,.doc,.docx,.xls,.xlsx');
    expect(acceptAttr(['image']).split(',')).toHaveLength(12);
    expect(acceptAttr([])).toBe('');
  });
});

describe('isPresent', () => {
  it('is false only for undefined, null and empty string', () => {
    expect([undefined, null, ''].map(isPresent)).toEqual([false, false, false]);
    expect([0, false, ' ', [], {}, NaN, 'a'].map(isPresent)).toEqual([true, true, true, true, true, true, true]);
  });
});
