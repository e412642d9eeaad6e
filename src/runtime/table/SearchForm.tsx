import { memo, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { AnyListColumn, ListColumn } from './listColumn';
import { searchColumns, searchColumnCount, toSearchParams, type SearchValues } from './searchParams';

type Option = { value: string | number; label: ReactNode };

/** Options of a select filter: its valueEnum, or what its `request` answers (loaded when the field shows). */
function useOptions(col: AnyListColumn): Option[] | undefined {
  const fromEnum = useMemo(() => {
    const e = col.valueEnum as Record<string, { text?: ReactNode } | ReactNode> | undefined;
    if (!e || typeof e !== 'object') return undefined;
    return Object.entries(e).map(([value, v]) => ({ value, label: v && typeof v === 'object' && 'text' in v ? (v as { text?: ReactNode }).text : (v as ReactNode) }));
  }, [col.valueEnum]);
  const [loaded, setLoaded] = useState<Option[]>();
  const request = col.request as (() => Promise<Option[]>) | undefined;
  useEffect(() => {
    if (!request || fromEnum) return;
    let live = true;
    request().then(
      (o) => live && setLoaded(o),
      () => live && setLoaded([]),
    );
    return () => {
      live = false;
    };
  }, [request, fromEnum]);
  return fromEnum ?? loaded;
}

function SelectFilter({ col, label, ...rest }: { col: AnyListColumn; label: string }) {
  const options = useOptions(col);
  return <Select {...rest} allowClear placeholder="请选择" aria-label={label} options={options} loading={!options} style={{ width: '100%' }} />;
}

/** The input of one filter, by the column's value type. */
function FilterInput({ col, label, ...rest }: { col: AnyListColumn; label: string }) {
  switch (col.valueType) {
    case 'select':
      return <SelectFilter {...rest} col={col} label={label} />;
    case 'dateRange':
      return <DatePicker.RangePicker {...rest} style={{ width: '100%' }} aria-label={label} />;
    case 'digit':
    case 'money':
      return <InputNumber {...rest} placeholder="请输入" aria-label={label} style={{ width: '100%' }} />;
    default:
      return <Input {...rest} allowClear placeholder="请输入" aria-label={label} />;
  }
}

const CARD = { background: '#fff', borderRadius: 8, padding: '24px 24px 0', marginBottom: 16 } as const;
const ACTIONS = { textAlign: 'right' } as const;

export interface SearchFormProps<T> {
  /** The table's columns: those not hidden from the search (and not 操作) are its filters. */
  columns: ListColumn<T>[];
  /** Values the form starts with, by field name (date ranges as [from, to] strings). */
  initialValues?: Record<string, unknown>;
  /** Start with only the first row of filters (展开 shows the rest). */
  defaultCollapsed?: boolean;
  /** The form box's width expected before it is laid out (filters per row follow its real width after). */
  width: number;
  /** The filters submitted (查询, Enter) or cleared (重置), as request params. */
  onSearch: (params: SearchValues) => void;
}

/**
 * The search form above a list: the columns' filters in rows, 重置 / 查询, and 展开 / 收起 when they
 * do not fit one row. antd's Form and inputs, not ProTable's search form, which was the largest part of
 * a list's first render (docs/decisions.md, "A list is drawn by the console, not ProTable").
 */
function SearchFormView<T>({ columns, initialValues, defaultCollapsed = true, width, onSearch }: SearchFormProps<T>) {
  const name = `search${useId().replace(/:/g, '')}`;
  const [form] = Form.useForm();
  const [collapsed, setCollapsed] = useState(defaultCollapsed);
  const fields = useMemo(() => searchColumns(columns as AnyListColumn[]), [columns]);
  // Filters per row follow the box's width, as in ProTable's search form: first as expected, then as
  // measured (a render only when the count changes).
  const boxRef = useRef<HTMLDivElement>(null);
  const [perRow, setPerRow] = useState(() => searchColumnCount(width));
  useEffect(() => {
    const el = boxRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => setPerRow(searchColumnCount(entry.target.getBoundingClientRect().width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const span = 24 / perRow;
  // Folded, the first row keeps room for the buttons, and at least one filter.
  const folded = Math.max(1, perRow - 1);
  const foldable = fields.length > folded;
  const shown = collapsed && foldable ? fields.slice(0, folded) : fields;
  // The buttons close the last row of filters, on its right.
  const offset = ((perRow - 1 - (shown.length % perRow) + perRow) % perRow) * span;
  // Date ranges arrive as strings: the pickers hold dates.
  const start = useMemo(() => {
    const v: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(initialValues ?? {})) v[k] = Array.isArray(x) ? x.map((d) => (d ? dayjs(String(d)) : d)) : x;
    return v;
  }, [initialValues]);

  const submit = () => onSearch(toSearchParams(fields, form.getFieldsValue(true) as Record<string, unknown>));
  const reset = () => {
    form.setFieldsValue(Object.fromEntries(fields.map((f) => [f.name, undefined])));
    submit();
  };

  return (
    <div ref={boxRef} style={CARD} data-testid="list-search">
      <Form form={form} name={name} initialValues={start} onFinish={submit}>
        <Row gutter={24}>
          {shown.map((f) => (
            <Col key={f.name} span={span}>
              <Form.Item name={f.name} label={f.label}>
                <FilterInput col={f.col} label={f.label} />
              </Form.Item>
            </Col>
          ))}
          <Col span={span} offset={offset} style={ACTIONS}>
            <Form.Item>
              <Space>
                <Button onClick={reset}>重置</Button>
                <Button type="primary" htmlType="submit">
                  查询
                </Button>
                {foldable && (
                  <Button type="link" data-testid="list-search-toggle" aria-expanded={!collapsed} onClick={() => setCollapsed((c) => !c)} style={{ paddingInline: 0 }}>
                    {collapsed ? '展开' : '收起'}
                    {collapsed ? <DownOutlined /> : <UpOutlined />}
                  </Button>
                )}
              </Space>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </div>
  );
}

/** Drawn again only when its props change (not when the rows of the list below it arrive). */
export const SearchForm = memo(SearchFormView) as typeof SearchFormView;
