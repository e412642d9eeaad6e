/** Issues of schema files ({ file, JSON path, reason }) and the JSON-path helpers every check uses. */
import type { SchemaIssue } from './types';

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The kind of a JSON value for messages: null, array, string, number, boolean, object. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** `$.a.b` for identifier keys, `$.a["x-y"]` for others. */
export function keyPath(base: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** A JSON pointer (`/routes/3/title`) as a JSON path (`$.routes[3].title`), reading `root` to tell indexes from keys. */
export function pointerToPath(root: unknown, pointer: string): string {
  let path = '$';
  let at: unknown = root;
  if (!pointer) return path;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^\d+$/.test(seg)) {
      path += `[${seg}]`;
      at = at[Number(seg)];
    } else {
      path = keyPath(path, seg);
      at = isObj(at) ? at[seg] : undefined;
    }
  }
  return path;
}

/** Levenshtein distance, used to suggest the intended key for a typo. */
function distance(a: string, b: string): number {
  const d: number[] = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length];
}

/** `unknown key "x" (did you mean "y"?); allowed: …` */
export function unknownKeyMessage(key: string, allowed: readonly string[]): string {
  const near = allowed
    .map((k) => [k, distance(k.toLowerCase(), key.toLowerCase())] as const)
    .filter(([, dist]) => dist <= 2)
    .sort((a, b) => a[1] - b[1])[0];
  return `unknown key "${key}"${near ? ` (did you mean "${near[0]}"?)` : ''}; allowed: ${allowed.join(', ')}`;
}

/** Collects issues, each once. */
export class Issues {
  readonly list: SchemaIssue[] = [];
  private readonly seen = new Set<string>();

  add(file: string, path: string, reason: string): void {
    const key = `${file}\u0000${path}\u0000${reason}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ file, path, reason });
  }

  /** Whether a file has any issue so far. */
  has(file: string): boolean {
    return this.list.some((i) => i.file === file);
  }

  /** An adder bound to one file. */
  for(file: string): (path: string, reason: string) => void {
    return (path, reason) => this.add(file, path, reason);
  }
}

/** One line per issue: `file: path: reason`. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.file}: ${i.path}: ${i.reason}`).join('\n');
}
