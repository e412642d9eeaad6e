/**
 * Upload file-type groups (spec §5). Pure module: no DOM or Node dependency, so the gateway and the
 * browser share the same rule.
 */
export type FileTypeGroup = 'image' | 'pdf' | 'office';

export const FILE_TYPE_GROUPS: Readonly<Record<FileTypeGroup, readonly string[]>> = Object.freeze({
  image: Object.freeze(['apng', 'avif', 'gif', 'ico', 'jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'png', 'svg', 'webp']),
  pdf: Object.freeze(['pdf']),
  office: Object.freeze(['doc', 'docx', 'xls', 'xlsx']),
});

/**
 * Lower-cased extension of a file name, without the dot; '' when there is none.
 * Only the last path segment counts (both '/' and '\' separate segments).
 * A name whose only dot is the leading one ('.bashrc') is a hidden file with NO extension,
 * as is a name ending in a dot ('report.') and a name without any dot ('README').
 */
export function extensionOf(name: string): string {
  const base = String(name ?? '').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 || dot === base.length - 1) return '';
  return base.slice(dot + 1).toLowerCase();
}

/** True when the file's extension (case-insensitive) belongs to one of the groups; false without an extension. */
export function checkFileType(fileName: string, groups: readonly FileTypeGroup[]): boolean {
  const ext = extensionOf(fileName);
  if (!ext) return false;
  return groups.some((g) => FILE_TYPE_GROUPS[g]?.includes(ext));
}

/** The `accept` attribute for <input type="file"> for the groups, e.g. '.pdf,.doc,.docx'. */
export function acceptAttr(groups: readonly FileTypeGroup[]): string {
  const exts = new Set<string>();
  for (const g of groups) for (const e of FILE_TYPE_GROUPS[g] ?? []) exts.add(`.${e}`);
  return [...exts].join(',');
}
