/**
 * One line of a form's error summary from a gateway field error, in the business's words: the field's
 * label (or 第 N 行 + column label for roster rows), never a raw key such as `rows[0].name` or `code`.
 * A message that already starts with its row (第 N 行…) or names its field is not given them again.
 */
import { labelled } from '../shared/entity/messages';

export interface FieldErrorLike {
  field: string;
  message: string;
}

const ROW_PATH = /^(\w+)\[(\d+)\](?:\.(\w+))?$/;

export function errorLine(e: FieldErrorLike, labelOf: (path: string) => string | undefined): string {
  const message = e.message.trim();
  const row = ROW_PATH.exec(e.field);
  if (row) {
    const rowText = `第 ${Number(row[2]) + 1} 行`;
    if (/^第 \d+ 行/.test(message)) return message;
    const label = row[3] ? labelOf(e.field) : undefined;
    return label && !message.includes(label) ? `${rowText} ${label}：${message}` : `${rowText}：${message}`;
  }
  return labelled(e.field ? labelOf(e.field) : undefined, message);
}
