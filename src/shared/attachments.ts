/**
 * Claim attachments (accident photos, medical bills): what may be uploaded, one definition for the
 * console's upload list and the gateway's checks. Pure module (no DOM, no Node).
 */
import { extensionOf, FILE_TYPE_GROUPS, type FileTypeGroup } from '../utils/upload.ts';

/** The spec's upload type groups a claim takes (§5): images and PDF. */
export const CLAIM_ATTACHMENT_GROUPS: readonly FileTypeGroup[] = ['image', 'pdf'];

/**
 * Extensions of those groups that a claim still refuses: an SVG is a document that can carry script,
 * and an accident photo or a scanned bill is never one, so it is refused rather than served.
 */
export const CLAIM_ATTACHMENT_REFUSED: readonly string[] = ['svg'];

/** Extensions a claim accepts, in the spec's order. */
export const CLAIM_ATTACHMENT_EXTS: readonly string[] = CLAIM_ATTACHMENT_GROUPS.flatMap((g) => FILE_TYPE_GROUPS[g]).filter(
  (e) => !CLAIM_ATTACHMENT_REFUSED.includes(e),
);

/** Largest file, in bytes (10 MB). */
export const CLAIM_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

/** Most files on one claim (the claim entity's attachmentIds.maxItems says the same; a test keeps them equal). */
export const CLAIM_ATTACHMENT_MAX_COUNT = 20;

/** Raster image extensions (shown as thumbnails); everything else accepted is a PDF. */
export const RASTER_EXTS: readonly string[] = FILE_TYPE_GROUPS.image.filter((e) => e !== 'svg');

export function isRasterImage(fileName: string): boolean {
  return RASTER_EXTS.includes(extensionOf(fileName));
}

/** `.jpg,.png,…` for <input accept>. */
export function claimAttachmentAccept(): string {
  return CLAIM_ATTACHMENT_EXTS.map((e) => `.${e}`).join(',');
}

export const ATTACHMENT_MESSAGES = {
  noExtension: '文件名缺少扩展名',
  type: `仅支持图片（${RASTER_EXTS.map((e) => e.toUpperCase()).join('、')}）和 PDF 文件`,
  svg: '不支持 SVG 图片，请上传照片（JPG、PNG 等）或 PDF',
  tooLarge: `单个文件不能超过 ${CLAIM_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`,
  empty: '文件为空',
  tooMany: `每个理赔申请最多上传 ${CLAIM_ATTACHMENT_MAX_COUNT} 个文件`,
} as const;

/** The browser's check before uploading: type by extension (case-insensitive), then size. Null when fine. */
export function attachmentProblem(fileName: string, size: number): string | null {
  const ext = extensionOf(fileName);
  if (!ext) return ATTACHMENT_MESSAGES.noExtension;
  if (CLAIM_ATTACHMENT_REFUSED.includes(ext)) return ATTACHMENT_MESSAGES.svg;
  if (!CLAIM_ATTACHMENT_EXTS.includes(ext)) return ATTACHMENT_MESSAGES.type;
  if (size > CLAIM_ATTACHMENT_MAX_BYTES) return ATTACHMENT_MESSAGES.tooLarge;
  if (size === 0) return ATTACHMENT_MESSAGES.empty;
  return null;
}
