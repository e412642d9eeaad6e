import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The content service (spec §7's content management group, served by the gateway by default): texts
 * such as the claim notice and the service agreement live as files under content/<key>.md, so they are
 * edited and deployed without rebuilding the console. A file starts with a `title:` front matter block.
 */
export interface ContentItem {
  key: string;
  title: string;
  /** paragraphs separated by blank lines; lines starting with '#' are headings */
  body: string;
  updatedAt: string;
}

const KEY_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function parseContent(key: string, text: string, updatedAt: Date): ContentItem {
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  const title = m ? (/^title:\s*(.+)$/m.exec(m[1])?.[1].trim() ?? key) : key;
  return { key, title, body: (m ? text.slice(m[0].length) : text).trim(), updatedAt: updatedAt.toISOString() };
}

/** Reads one item, or null for an unknown or malformed key (never a path outside contentDir). */
export async function readContent(contentDir: string, key: string): Promise<ContentItem | null> {
  if (!KEY_RE.test(key)) return null;
  const file = join(contentDir, `${key}.md`);
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return parseContent(key, text, info.mtime);
  } catch {
    return null;
  }
}
