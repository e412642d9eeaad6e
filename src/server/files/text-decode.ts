import { createRequire } from 'node:module';
import type Chardet from 'chardet';
import type Iconv from 'iconv-lite';

// Loaded when a file needs them (a BOM, or text that is not UTF-8): about 45 ms that a parse process
// reading an .xlsx, whose code is bundled with this module (plain-js.ts), no longer spends starting.
const load = createRequire(import.meta.url);
let iconvModule: typeof Iconv | undefined;
let chardetModule: typeof Chardet | undefined;
const iconv = () => (iconvModule ??= load('iconv-lite') as typeof Iconv);
const chardet = () => (chardetModule ??= load('chardet') as typeof Chardet);

/**
 * Decode an uploaded text file (CSV). Order: BOM (UTF-8 / UTF-16LE / UTF-16BE), strict UTF-8,
 * then chardet's guess decoded with iconv-lite. The platform's users are in mainland China,
 * so when chardet hesitates between a Western single-byte code page and GB18030, GB18030
 * wins (Excel on Chinese Windows saves CSV as GBK, a subset of GB18030).
 */
export interface DecodedText {
  text: string;
  /** Encoding used, e.g. 'utf-8', 'utf-16le', 'gb18030', 'big5'. */
  encoding: string;
  bom: boolean;
}

const CJK = new Set(['GB18030', 'Big5', 'Shift_JIS', 'EUC-JP', 'EUC-KR']);

export function decodeText(buf: Buffer): DecodedText {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    return { text: buf.toString('utf8', 3), encoding: 'utf-8', bom: true };
  }
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) {
    return { text: iconv().decode(buf.subarray(2), 'utf-16le'), encoding: 'utf-16le', bom: true };
  }
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    return { text: iconv().decode(buf.subarray(2), 'utf-16be'), encoding: 'utf-16be', bom: true };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'utf-8', bom: false };
  } catch {
    /* not UTF-8: guess below */
  }
  const encoding = guessLegacyEncoding(buf);
  return { text: iconv().decode(buf, encoding), encoding, bom: false };
}

/** The most likely non-UTF-8 encoding of buf, as an iconv-lite name. */
export function guessLegacyEncoding(buf: Buffer): string {
  // chardet looks at at most the first 64 KB here: enough, and bounded in time.
  const sample = buf.subarray(0, 64 * 1024);
  const matches = chardet().analyse(sample).filter((m) => iconv().encodingExists(m.name));
  const gb = matches.find((m) => m.name === 'GB18030')?.confidence ?? 0;
  const top = matches.find((m) => CJK.has(m.name));
  // Another CJK encoding only when chardet is clearly surer of it than of GB18030.
  if (top && top.name !== 'GB18030' && top.confidence >= 50 && top.confidence > gb + 20) return top.name.toLowerCase();
  // Short GBK text often gets Western or "10 %" guesses; on this platform it is GB18030.
  return 'gb18030';
}

/** True when text looks like plain text: no NUL and few other control characters. */
export function looksLikeText(text: string): boolean {
  if (text.includes('\0')) return false;
  let control = 0;
  const n = Math.min(text.length, 64 * 1024);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0xfffd) control++;
  }
  return control <= n * 0.01;
}
