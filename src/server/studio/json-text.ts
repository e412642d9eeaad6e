/**
 * Edits a schema file's text the way a person would: only the changed value is rewritten, in the
 * style of the file around it, and every other byte stays as it was (so an untouched file saves
 * unchanged and a one-field edit is a one-field diff).
 *
 * Two styles live in schemas/: page files are expanded JSON (JSON.stringify with two spaces), entity
 * files keep one field per line (`"name": { "type": "string", "label": "姓名" }`), and a field with
 * options puts its scalar keys on one line and each option on its own line. A new or changed value
 * takes the style of the value it replaces, or of its previous sibling when it is new.
 */
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';
import type { SchemaEdit } from '../../shared/studio.ts';

/** Lines of a compact value are kept under this many characters where they can be. */
const WIDTH = 160;

export type { SchemaEdit } from '../../shared/studio.ts';

type Style = 'expanded' | 'compact';

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `{ "a": 1, "b": [1, 2] }`: one line, a space inside braces, ", " between entries. */
export function inline(v: unknown): string {
  if (Array.isArray(v)) return v.length ? `[${v.map(inline).join(', ')}]` : '[]';
  if (isPlainObject(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length ? `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(v);
}

/** JSON.stringify(v, null, 2) with every line after the first indented by `indent`. */
function expanded(v: unknown, indent: string): string {
  return JSON.stringify(v, null, 2).split('\n').join(`\n${indent}`);
}

/**
 * A compact value at `indent` after a key of `keyLength` characters: one line when it fits; otherwise
 * an object's scalar entries packed into lines, and each entry holding an array of objects (options)
 * or a long object on lines of its own, its items one per line.
 */
function compact(v: unknown, indent: string, keyLength: number): string {
  const one = inline(v);
  if (indent.length + keyLength + one.length + 1 <= WIDTH || !isPlainObject(v)) return one;
  const inner = `${indent}  `;
  const lines: string[] = [];
  let line: string[] = [];
  const flush = () => {
    if (line.length) lines.push(`${inner}${line.join(', ')}`);
    line = [];
  };
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    const entry = `${JSON.stringify(k)}: ${inline(x)}`;
    const list = Array.isArray(x) && x.some(isPlainObject);
    if (list) {
      flush();
      const items = (x as unknown[]).map((item) => `${inner}  ${inline(item)}`);
      lines.push(`${inner}${JSON.stringify(k)}: [\n${items.join(',\n')}\n${inner}]`);
      continue;
    }
    const width = inner.length + [...line, entry].join(', ').length + 1;
    if (line.length && width > WIDTH) flush();
    line.push(entry);
  }
  flush();
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function render(v: unknown, style: Style, indent: string, keyLength: number): string {
  return style === 'expanded' ? expanded(v, indent) : compact(v, indent, keyLength);
}

/** The indentation of the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether a value's text is in the expanded (JSON.stringify) style. */
function styleOf(text: string, node: Node, indent: string): Style {
  const src = text.slice(node.offset, node.offset + node.length);
  if (!src.includes('\n')) return node.type === 'object' || node.type === 'array' ? (node.children?.length ? 'compact' : 'expanded') : 'expanded';
  try {
    return expanded(JSON.parse(src), indent) === src ? 'expanded' : 'compact';
  } catch {
    return 'compact';
  }
}

function propertyNode(root: Node, path: JSONPath): Node | undefined {
  const value = findNodeAtLocation(root, path);
  return value?.parent?.type === 'property' ? value.parent : undefined;
}

function parse(text: string): Node {
  const errors: Array<{ error: number; offset: number }> = [];
  const root = parseTree(text, errors as never, { allowTrailingComma: false, disallowComments: true });
  if (!root || errors.length) throw new Error('the file is not valid JSON');
  return root;
}

const splice = (text: string, at: number, remove: number, insert: string) => text.slice(0, at) + insert + text.slice(at + remove);

function setValue(text: string, root: Node, path: JSONPath, value: unknown, before?: string): string {
  if (typeof path[path.length - 1] === 'number') {
    const item = findNodeAtLocation(root, path);
    if (!item) throw new Error(`no item at ${path.join('.')}`);
    const indent = indentAt(text, item.offset);
    return splice(text, item.offset, item.length, render(value, styleOf(text, item, indent), indent, 0));
  }
  const prop = propertyNode(root, path);
  if (prop) {
    const [, valueNode] = prop.children!;
    const indent = indentAt(text, prop.offset);
    const rendered = render(value, styleOf(text, valueNode, indent), indent, JSON.stringify(path[path.length - 1]).length + 2);
    return splice(text, valueNode.offset, valueNode.length, rendered);
  }
  const parentPath = path.slice(0, -1);
  const key = String(path[path.length - 1]);
  const parent = parentPath.length ? findNodeAtLocation(root, parentPath) : root;
  if (!parent || parent.type !== 'object') throw new Error(`no object at ${parentPath.join('.') || '(root)'}`);
  const siblings = parent.children ?? [];
  const anchor = before ? siblings.find((p) => p.children![0].value === before) : undefined;
  if (!siblings.length) {
    // An empty object: `{}` becomes an expanded object holding the property.
    const indent = indentAt(text, parent.offset);
    const inner = `${indent}  `;
    return splice(text, parent.offset, parent.length, `{\n${inner}${JSON.stringify(key)}: ${render(value, 'expanded', inner, key.length + 4)}\n${indent}}`);
  }
  const model = anchor ?? siblings[siblings.length - 1];
  const indent = indentAt(text, model.offset);
  const multiline = text.slice(parent.offset, parent.offset + parent.length).includes('\n');
  const style = styleOf(text, model.children![1], indent);
  const entry = `${JSON.stringify(key)}: ${render(value, style, indent, key.length + 4)}`;
  if (anchor) return splice(text, anchor.offset, 0, `${entry},${multiline ? `\n${indent}` : ' '}`);
  const last = siblings[siblings.length - 1];
  return splice(text, last.offset + last.length, 0, `,${multiline ? `\n${indent}` : ' '}${entry}`);
}

/**
 * The text of a property or array item with what separates it from its neighbours: up to the next one,
 * or (the last) from the end of the previous one. The parent has at least two children.
 */
function childSpan(parent: Node, child: Node): [number, number] {
  const siblings = parent.children!;
  const i = siblings.indexOf(child);
  if (i < siblings.length - 1) return [child.offset, siblings[i + 1].offset - child.offset];
  const prev = siblings[i - 1];
  return [prev.offset + prev.length, child.offset + child.length - prev.offset - prev.length];
}

function remove(text: string, root: Node, path: JSONPath): string {
  const last = path[path.length - 1];
  const node = typeof last === 'number' ? findNodeAtLocation(root, path) : propertyNode(root, path);
  if (!node) throw new Error(`nothing at ${path.join('.')}`);
  const parent = node.parent!;
  if (parent.children!.length === 1) return splice(text, parent.offset, parent.length, parent.type === 'array' ? '[]' : '{}');
  const [at, length] = childSpan(parent, node);
  return splice(text, at, length, '');
}

/** Inserts an item into an array at `index` (default: the end), in the style of its neighbours. */
function insertItem(text: string, root: Node, path: JSONPath, value: unknown, index?: number): string {
  const arr = findNodeAtLocation(root, path);
  if (!arr || arr.type !== 'array') throw new Error(`no array at ${path.join('.')}`);
  const items = arr.children ?? [];
  if (!items.length) {
    const indent = indentAt(text, arr.offset);
    return splice(text, arr.offset, arr.length, `[\n${indent}  ${render(value, 'expanded', `${indent}  `, 0)}\n${indent}]`);
  }
  const at = index === undefined || index >= items.length ? undefined : items[Math.max(0, index)];
  const model = at ?? items[items.length - 1];
  const indent = indentAt(text, model.offset);
  const multiline = text.slice(arr.offset, arr.offset + arr.length).includes('\n');
  const rendered = render(value, multiline ? styleOf(text, model, indent) : 'compact', indent, 0);
  const sep = multiline ? `\n${indent}` : ' ';
  if (at) return splice(text, at.offset, 0, `${rendered},${sep}`);
  return splice(text, model.offset + model.length, 0, `,${sep}${rendered}`);
}

function rename(text: string, root: Node, path: JSONPath, to: string): string {
  const prop = propertyNode(root, path);
  if (!prop) throw new Error(`no property at ${path.join('.')}`);
  const key = prop.children![0];
  return splice(text, key.offset, key.length, JSON.stringify(to));
}

function move(text: string, root: Node, path: JSONPath, before?: string): string {
  const prop = propertyNode(root, path);
  if (!prop) throw new Error(`no property at ${path.join('.')}`);
  const key = String(path[path.length - 1]);
  if (before === key) return text;
  const valueText = text.slice(prop.children![1].offset, prop.children![1].offset + prop.children![1].length);
  const removed = remove(text, root, path);
  const root2 = parse(removed);
  // Re-insert the value's own text (not a re-rendering) at the new place.
  const marker = `__studio_move_${Date.now()}__`;
  const withMarker = setValue(removed, root2, path, marker, before);
  return withMarker.replace(JSON.stringify(marker), valueText);
}

/** Applies the edits in order to a schema file's text. */
export function editJsonText(text: string, edits: readonly SchemaEdit[]): string {
  let out = text;
  for (const e of edits) {
    const root = parse(out);
    if (e.op === 'set') out = setValue(out, root, e.path, e.value, e.before);
    else if (e.op === 'remove') out = remove(out, root, e.path);
    else if (e.op === 'insert') out = insertItem(out, root, e.path, e.value, e.index);
    else if (e.op === 'rename') out = rename(out, root, e.path, e.to);
    else out = move(out, root, e.path, e.before);
  }
  return out;
}

/** A new schema file's text: expanded JSON, two spaces, a final newline (how every page file is written). */
export function newFileText(data: unknown): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}
