/** XML helpers of the .xlsx reader (xlsx-sheet.ts, xlsx-cells.ts): saxes fed a part's text, attributes by local name. */
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/** Text handed to the XML parser at a time, so reading stops soon after `sheetRows`. */
const CHUNK_CHARS = 1 << 20;

export const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/** An attribute by its local name (prefixes vary: r:id, relationships:id). */
export function attr(tag: { attributes: Record<string, unknown> }, name: string): string | undefined {
  for (const [k, v] of Object.entries(tag.attributes)) if (localName(k) === name) return String(v);
  return undefined;
}

/** Feeds `xml` to a new parser with these handlers, a chunk at a time, until done or `stop()` says so. */
export function parseXml(
  xml: string,
  on: { open?: (tag: SaxesTagPlain, name: string) => void; close?: (name: string) => void; text?: (text: string) => void },
  stop: () => boolean = () => false,
): void {
  const p = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  if (on.open) p.on('opentag', (tag) => on.open!(tag, localName(tag.name)));
  if (on.close) p.on('closetag', (tag) => on.close!(localName(tag.name)));
  if (on.text) {
    p.on('text', on.text);
    p.on('cdata', on.text);
  }
  p.on('error', (err) => {
    throw err;
  });
  for (let i = 0; i < xml.length && !stop(); i += CHUNK_CHARS) p.write(xml.slice(i, i + CHUNK_CHARS));
  if (!stop()) p.close();
}

/** OOXML escapes characters XML cannot carry as _xHHHH_; SheetJS reads strings with Windows line ends as \n. */
export const unescapeOoxml = (s: string): string =>
  s.includes('_x') || s.includes('\r') ? s.replace(/_x([\da-fA-F]{4})_/g, (_m, c: string) => String.fromCharCode(parseInt(c, 16))).replace(/\r\n/g, '\n') : s;

