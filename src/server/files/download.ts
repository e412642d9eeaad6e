/** Headers for serving stored files: always as attachments, never as active content. */

const MIME: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  png: 'image/png',
  apng: 'image/apng',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  pjpeg: 'image/jpeg',
  pjp: 'image/jpeg',
};

/** Raster images that a browser may render inline as an image preview. */
export const RASTER_IMAGE_EXTS: ReadonlySet<string> = new Set(['png', 'apng', 'gif', 'webp', 'avif', 'ico', 'jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp']);

/**
 * Content-Type to send for a stored file. Anything a browser could execute (html, svg,
 * xml, js, unknown) is application/octet-stream; raster images get their image type only
 * when the caller explicitly asks for an image preview.
 */
export function safeMimeForDownload(ext: string, opts: { imagePreview?: boolean } = {}): string {
  const e = ext.toLowerCase().replace(/^\./, '');
  if (RASTER_IMAGE_EXTS.has(e)) return opts.imagePreview ? MIME[e] : 'application/octet-stream';
  return MIME[e] ?? 'application/octet-stream';
}

/** RFC 5987 attr-char percent-encoding (encodeURIComponent leaves ' ( ) * ! unescaped). */
function encodeRfc5987(s: string): string {
  return encodeURIComponent(s).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The last path component without control characters; '' stays ''. */
export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
}

/**
 * RFC 6266 Content-Disposition for a download:
 * attachment; filename="ascii-fallback"; filename*=UTF-8''percent-encoded
 */
export function contentDispositionAttachment(fileName: string): string {
  const name = cleanFileName(fileName) || 'download';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').replace(/%/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/**
 * All headers for sending a stored file. Always 'attachment' except an explicitly requested
 * preview of a raster image; nosniff and a locked-down CSP in both cases.
 */
export function downloadHeaders(fileName: string, ext: string, opts: { imagePreview?: boolean } = {}): Record<string, string> {
  const e = ext.toLowerCase().replace(/^\./, '');
  const inline = !!opts.imagePreview && RASTER_IMAGE_EXTS.has(e);
  return {
    'Content-Type': safeMimeForDownload(e, { imagePreview: inline }),
    'Content-Disposition': inline ? contentDispositionAttachment(fileName).replace(/^attachment/, 'inline') : contentDispositionAttachment(fileName),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  };
}
