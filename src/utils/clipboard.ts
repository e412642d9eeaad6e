/** Copies text to the clipboard: navigator.clipboard when available, else a hidden textarea + execCommand('copy'). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission denied or insecure context: fall through to the legacy path.
  }
  return legacyCopy(text);
}

function legacyCopy(text: string): boolean {
  if (typeof document === 'undefined' || !document.body) return false;
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.top = '-1000px';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  try {
    ta.select();
    return typeof document.execCommand === 'function' ? document.execCommand('copy') : false;
  } catch {
    return false;
  } finally {
    ta.remove();
  }
}

/** A query-string value ('?a=1&b=x' → getQueryValue('b') === 'x'); null when absent. */
export function getQueryValue(name: string, search: string = typeof location !== 'undefined' ? location.search : ''): string | null {
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(name);
}
