import type { ReactNode } from 'react';
import dayjs from 'dayjs';
import { Badge } from 'antd';
import type { ListColumn } from './listColumn';
import type { TableColumn } from '../../schema/types';
import { fillPath } from '../../schema/routes';
import { formatValue } from '../format';
import { listValueType, toValueEnum } from '../tableColumns';
import { CopyButton } from './CopyButton';
import { ListLink } from './ListLink';

type Row = Record<string, unknown>;

const DIGITS = new Intl.NumberFormat();

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * A date (YYYY-MM-DD) or date-time (YYYY-MM-DD HH:mm:ss) in local time, as dayjs formats it, from its
 * parts: with the date picker's plugins loaded, dayjs's format runs each of them (a list page has 60 dates).
 */
function dayText(value: unknown, withTime: boolean): string {
  const d = dayjs(value as string);
  if (!d.isValid()) return String(value);
  const day = `${d.year()}-${pad(d.month() + 1)}-${pad(d.date())}`;
  return withTime ? `${day} ${pad(d.hour())}:${pad(d.minute())}:${pad(d.second())}` : day;
}

type EnumEntry = { text?: ReactNode; status?: string; color?: string };
const BADGE_STATUS = new Set(['success', 'error', 'default', 'processing', 'warning']);

/**
 * antd's status badge (`<Badge status text />`) as its markup, which antd's stylesheet draws: a list page
 * shows one or two in each of its 30 rows, and antd's Badge component (its config, token and style hooks,
 * its motion wrapper) cost more than the three elements it renders. The console's theme is not hashed
 * (layouts/theme.ts), so antd's classes alone select its styles.
 */
function statusBadge(status: string, text: ReactNode) {
  return (
    <span className="ant-badge ant-badge-status ant-badge-not-a-wrapper">
      <span className={`ant-badge-status-dot ant-badge-status-${status}`} />
      <span className="ant-badge-status-text">{text}</span>
    </span>
  );
}

/** An option's label, as a coloured status dot when the option has a status (or a colour); else the value. */
function enumText(value: unknown, valueEnum: Record<string, EnumEntry | ReactNode>): ReactNode {
  const entry = valueEnum[String(value)];
  if (entry === undefined || entry === null) return value as ReactNode;
  if (typeof entry !== 'object' || !('text' in entry || 'status' in entry)) return entry as ReactNode;
  const { text, status, color } = entry as EnumEntry;
  const s = status?.toLowerCase();
  if (s && BADGE_STATUS.has(s)) return statusBadge(s, text);
  if (color) return <Badge color={color} text={text} />;
  return text ?? (value as ReactNode);
}

/**
 * What a list cell shows for a value of a list value type: a status option as a badge, dates as
 * YYYY-MM-DD[ HH:mm:ss], numbers grouped, '-' when empty (as ProTable's read-only fields showed them,
 * without a field component per cell).
 */
export function cellText(value: unknown, valueType: string | undefined, valueEnum?: ListColumn['valueEnum']): ReactNode {
  if (value === null || value === undefined || value === '') return '-';
  switch (valueType) {
    case 'select':
      return valueEnum ? enumText(value, valueEnum as Record<string, EnumEntry>) : String(value);
    case 'date':
      return dayText(value, false);
    case 'dateTime':
      return dayText(value, true);
    case 'digit':
      return <span>{DIGITS.format(Number(value))}</span>;
    default:
      return value as ReactNode;
  }
}

/** Monospace for lists of numbers (order numbers …), so neighbouring values never run together. */
const CODE_FONT = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/** A list value (order numbers, service packs): labels of its options, separated by 、; 无 when empty. */
function listCell(v: unknown, c: TableColumn) {
  if (!Array.isArray(v)) return undefined;
  if (v.length === 0) return '无';
  const text = formatValue(v, c.valueType, c.options);
  return c.options ? text : <span style={CODE_FONT}>{text}</span>;
}

/** A cell's content followed by a button copying its value, for copyable columns (order numbers …). */
function withCopy(c: TableColumn, record: Row, content: ReactNode) {
  const v = record[c.dataIndex];
  if (!c.copyable || v === null || v === undefined || v === '') return content;
  return (
    <>
      {content}
      <CopyButton text={String(v)} />
    </>
  );
}

/**
 * The cell renderer of a schema column (a list column's `render`; `dom` is the cell's text, '-' when
 * empty): a page's own renderer, a link to the row's page, money always in ¥ (whatever antd's
 * language), the stored text of an optionsApi column (not an option's label), lists, or cellText; a
 * copyable column's value gets a copy button.
 */
export function schemaCellRender(c: TableColumn, own?: (value: unknown, record: Row) => ReactNode): (dom: ReactNode, record: Row) => ReactNode {
  if (own) return (_, record) => withCopy(c, record, own(record[c.dataIndex], record));
  if (c.link) return (dom, record) => withCopy(c, record, <ListLink to={fillPath(c.link!, record)}>{dom}</ListLink>);
  if (c.valueType === 'boolean' || c.valueType === 'money') return (_, record) => withCopy(c, record, formatValue(record[c.dataIndex], c.valueType));
  if (c.optionsApi) return (_, record) => withCopy(c, record, String(record[c.dataIndex] ?? ''));
  const valueType = c.options ? 'select' : listValueType(c.valueType);
  const valueEnum = toValueEnum(c.options);
  return (_, record) => withCopy(c, record, listCell(record[c.dataIndex], c) ?? cellText(record[c.dataIndex], valueType, valueEnum));
}
