/**
 * The two shapes that make up almost every roster workbook's bytes, scanned without a general XML
 * parser: a worksheet's <sheetData> of rows, cells, values and formulas, and a shared-string table of
 * plain <si><t>…</t></si> items. These are the forms Excel, WPS and the usual libraries write; the scan
 * answers null the moment the text holds anything else (a namespace prefix, an inline string, rich text,
 * a comment, CDATA, an unknown entity, a raw carriage return…) and xlsx-sheet.ts reads that part with
 * saxes instead. On a 50,000-row roster it takes about a third of saxes's time, which is what the
 * parse process spends most of an upload on (docs/decisions.md).
 */

/** A cell as scanned: its reference, type and style attributes, its value text, whether it has a formula. */
export interface ScannedCell {
  ref: string | undefined;
  t: string | undefined;
  s: string | undefined;
  v: string | undefined;
  formula: boolean;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML text with its entities decoded; null for an entity XML does not define or a raw carriage return. */
function xmlText(raw: string): string | null {
  if (raw.includes('\r')) return null; // XML turns line ends into \n; leave that to the parser
  if (!raw.includes('&')) return raw;
  let bad = false;
  const out = raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);|&/g, (m, name: string | undefined) => {
    if (name === undefined) bad = true;
    else if (name[0] !== '#') return ENTITIES[name] ?? ((bad = true), m);
    else {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (code > 0x10ffff) bad = true;
      else return String.fromCodePoint(code);
    }
    return m;
  });
  return bad ? null : out;
}

const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

/** The attributes of a start tag's text (after its name, before its `>`); null when they are not plain name="value" pairs. */
function attributes(text: string): Map<string, string> | null {
  const out = new Map<string, string>();
  ATTRIBUTE.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    const m = ATTRIBUTE.exec(text);
    if (!m) return text.slice(at).trim() ? null : out;
    const value = xmlText(m[2] ?? m[3]);
    if (value === null) return null;
    out.set(m[1], value);
    at = ATTRIBUTE.lastIndex;
  }
  return out;
}

/** One tag at `at` (which holds '<'): its name, attributes text, whether it closes or is empty, and where it ends. */
function tagAt(xml: string, at: number): { name: string; attrs: string; closing: boolean; empty: boolean; end: number } | null {
  const end = xml.indexOf('>', at);
  if (end < 0) return null;
  let inner = xml.slice(at + 1, end);
  const closing = inner[0] === '/';
  if (closing) inner = inner.slice(1);
  const empty = inner.endsWith('/');
  if (empty) inner = inner.slice(0, -1);
  const m = /^([A-Za-z]+)(?=\s|$)/.exec(inner);
  if (!m) return null; // a prefix, a comment, CDATA, a processing instruction
  return { name: m[1], attrs: inner.slice(m[1].length), closing, empty, end: end + 1 };
}

/** Where the next tag starts from `at`, with only whitespace before it; -1 when there is text or no tag. */
function nextTag(xml: string, at: number): number {
  const lt = xml.indexOf('<', at);
  return lt < 0 || (lt !== at && xml.slice(at, lt).trim()) ? -1 : lt;
}

/** Text up to the next '<' from `at`, decoded; null when it cannot be. */
function textUntilTag(xml: string, at: number): { text: string; end: number } | null {
  const end = xml.indexOf('<', at);
  if (end < 0) return null;
  const text = xmlText(xml.slice(at, end));
  return text === null ? null : { text, end };
}

/** An element's text from `at` (after its start tag) and where its closing `</name>` ends; null for any other content. */
function textThenClose(xml: string, at: number, name: string): { text: string; end: number } | null {
  const body = textUntilTag(xml, at);
  const close = body && tagAt(xml, body.end);
  return body && close && close.closing && close.name === name ? { text: body.text, end: close.end } : null;
}

const PLAIN_CELL = /<c r="([A-Z]{1,3}\d+)"(?: s="(\d+)")?(?: t="([a-z]+)")?><v>([^<&\r]*)<\/v><\/c>/y;
/** A row's start tag with r first and other attributes (any prefix) whose values need no decoding. */
const PLAIN_ROW = /<row r="(\d+)"(?: [A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?="[^"<&\r]*")*>/y;

/**
 * The rows and cells of a worksheet part, calling onRow for each row (its r attribute, if any) and
 * onCell for each cell of it; stops when onRow answers false. Null when the part is not in the plain shape.
 */
export function scanSheetData(xml: string, onRow: (r: string | undefined) => boolean, onCell: (cell: ScannedCell) => void): boolean | null {
  const open = xml.indexOf('<sheetData');
  if (open < 0) return null;
  const first = tagAt(xml, open);
  if (!first || first.name !== 'sheetData' || first.closing || first.attrs.trim()) return null;
  if (first.empty) return true;
  let at = first.end;
  let cell: ScannedCell | null = null;
  let inRow = false;
  for (;;) {
    const lt = nextTag(xml, at); // no text between rows and cells
    if (lt < 0) return null;
    if (inRow && !cell) {
      // The common cell, <c r="B2" s="1" t="s"><v>7</v></c> (s and t optional), in one match.
      PLAIN_CELL.lastIndex = lt;
      const m = PLAIN_CELL.exec(xml);
      if (m) {
        onCell({ ref: m[1], s: m[2], t: m[3], v: m[4], formula: false });
        at = PLAIN_CELL.lastIndex;
        continue;
      }
      if (xml.startsWith('</row>', lt)) {
        inRow = false;
        at = lt + 6;
        continue;
      }
    } else if (!inRow) {
      // The common row, <row r="2" spans="1:4" x14ac:dyDescent="0.25">, in one match.
      PLAIN_ROW.lastIndex = lt;
      const m = PLAIN_ROW.exec(xml);
      if (m) {
        if (!onRow(m[1])) return true;
        inRow = true;
        at = PLAIN_ROW.lastIndex;
        continue;
      }
    }
    const tag = tagAt(xml, lt);
    if (!tag) return null;
    at = tag.end;
    if (tag.closing) {
      if (tag.name === 'sheetData' && !inRow) return true;
      if (tag.name === 'row' && inRow && !cell) inRow = false;
      else if (tag.name === 'c' && cell) {
        onCell(cell);
        cell = null;
      } else return null;
      continue;
    }
    const attrs = attributes(tag.attrs);
    if (!attrs) return null;
    if (tag.name === 'row' && !inRow) {
      if (!onRow(attrs.get('r'))) return true;
      inRow = !tag.empty;
    } else if (tag.name === 'c' && inRow && !cell) {
      cell = { ref: attrs.get('r'), t: attrs.get('t'), s: attrs.get('s'), v: undefined, formula: false };
      if (tag.empty) {
        onCell(cell);
        cell = null;
      }
    } else if ((tag.name === 'v' || tag.name === 'f') && cell) {
      if (tag.name === 'f') cell.formula = true;
      if (tag.empty) {
        if (tag.name === 'v') cell.v ??= '';
        continue;
      }
      const body = textThenClose(xml, at, tag.name);
      if (!body) return null;
      if (tag.name === 'v') cell.v = (cell.v ?? '') + body.text;
      at = body.end;
    } else return null;
  }
}

const PRESERVED = '<si><t xml:space="preserve">';

/** A shared-string table of plain items (<si><t>text</t></si>, or an empty <t/>), as text; null for any other shape. */
export function scanSharedStrings(xml: string): string[] | null {
  const open = xml.indexOf('<sst');
  if (open < 0) return null;
  const root = tagAt(xml, open);
  if (!root || root.name !== 'sst' || root.closing) return null;
  const out: string[] = [];
  if (root.empty) return out;
  let at = root.end;
  for (;;) {
    const lt = nextTag(xml, at);
    if (lt < 0) return null;
    // The common item, <si><t>text</t></si>, without looking at its tags one by one.
    const plain = xml.startsWith('<si><t>', lt) ? lt + 7 : xml.startsWith(PRESERVED, lt) ? lt + PRESERVED.length : -1;
    const body = plain < 0 ? null : textUntilTag(xml, plain);
    if (body && xml.startsWith('</t></si>', body.end)) {
      out.push(body.text);
      at = body.end + 9;
      continue;
    }
    const si = tagAt(xml, lt);
    if (!si) return null;
    if (si.closing) return si.name === 'sst' ? out : null;
    if (si.name !== 'si' || si.empty || si.attrs.trim()) return null;
    const t = tagAt(xml, si.end);
    if (!t || t.name !== 't' || t.closing || !attributes(t.attrs)) return null;
    let text = '';
    at = t.end;
    if (!t.empty) {
      const content = textThenClose(xml, at, 't');
      if (!content) return null;
      text = content.text;
      at = content.end;
    }
    const end = tagAt(xml, at);
    if (!end || !end.closing || end.name !== 'si') return null;
    at = end.end;
    out.push(text);
  }
}
