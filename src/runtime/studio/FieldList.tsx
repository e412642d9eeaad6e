/**
 * An entity's fields in the studio: the list (name, label, type, search, rules) with add, edit, move and
 * remove. The editor is a console form made from the meta schema (metaForm.ts), rendered by FormPage and
 * applied to the draft instead of being sent.
 */
import { useMemo, useState } from 'react';
import { Button, Drawer, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined } from '@ant-design/icons';
import { FormPage } from '../pages/FormPage';
import { ApiError } from '../../services/request';
import type { SchemaEdit } from '../../shared/studio';
import { fieldEditorForm, fieldEditorInputs, fromEditorValues, toEditorValues, type MetaNode } from './metaForm';
import { fieldEdits, moveEdit } from './draft';

type Def = Record<string, unknown>;

interface Props {
  entity: { label?: string; fields: Record<string, Def | string> };
  metas: Record<string, MetaNode>;
  onEdits: (edits: SchemaEdit[]) => void;
}

export function FieldList({ entity, metas, onEdits }: Props) {
  const [editing, setEditing] = useState<{ name?: string }>();
  const inputs = useMemo(() => fieldEditorInputs(metas), [metas]);
  /** A key's value as the editor's select shows it (the meta's x-enumLabels). */
  const shown = (key: string, v: unknown) => inputs.find((i) => i.path[0] === key && i.kind === 'enum')?.form.options?.find((o) => o.value === String(v))?.label ?? String(v ?? '');
  const order = Object.keys(entity.fields);
  const rows = order.map((name) => ({ name, def: entity.fields[name] }));

  const current = editing?.name !== undefined ? { name: editing.name, def: entity.fields[editing.name] } : undefined;
  const initialValues = useMemo(
    () => (current && typeof current.def === 'object' ? toEditorValues(inputs, current.name, current.def) : { type: 'string' }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [editing, inputs],
  );
  const form = useMemo(() => fieldEditorForm(inputs, current ? `编辑字段 ${current.name}` : '新增字段'), [inputs, current?.name]);

  const apply = (values: Record<string, unknown>) => {
    const next = fromEditorValues(inputs, values);
    if (next.name !== current?.name && next.name in entity.fields) {
      throw new ApiError(`字段名 ${next.name} 已存在`, 400, 400, [{ field: '__name', message: `${entity.label ?? '实体'}已有字段 ${next.name}` }]);
    }
    onEdits(fieldEdits(current, next));
    setEditing(undefined);
  };

  return (
    <>
      <Table
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: '字段名', dataIndex: 'name', render: (n: string) => <Typography.Text code>{n}</Typography.Text> },
          { title: '中文名称', render: (_, r) => (typeof r.def === 'string' ? `引用 ${r.def}` : String(r.def.label ?? '')) },
          { title: '类型', render: (_, r) => (typeof r.def === 'string' ? '引用' : shown('type', r.def.type)) },
          {
            title: '规则',
            render: (_, r) =>
              typeof r.def === 'object' && (
                <Space size={4} wrap>
                  {r.def.required === true && <Tag>必填</Tag>}
                  {r.def.readOnly === true && <Tag>只读</Tag>}
                  {r.def.unique === true && <Tag>唯一</Tag>}
                  {typeof r.def.maxLength === 'number' && <Tag>最多 {r.def.maxLength} 字</Tag>}
                  {typeof r.def.search === 'string' && <Tag color="blue">筛选：{shown('search', r.def.search)}</Tag>}
                </Space>
              ),
          },
          {
            title: '操作',
            width: 220,
            render: (_, r, i) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setEditing({ name: r.name })} disabled={typeof r.def === 'string'}>
                  编辑
                </Button>
                <Button size="small" type="text" aria-label={`上移 ${r.name}`} icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => onEdits([moveEdit(order, r.name, -1)!])} />
                <Button size="small" type="text" aria-label={`下移 ${r.name}`} icon={<ArrowDownOutlined />} disabled={i === order.length - 1} onClick={() => onEdits([moveEdit(order, r.name, 1)!])} />
                <Popconfirm title={`删除字段 ${r.name}？`} description="已存储的数据需要迁移文件才能删除列" onConfirm={() => onEdits([{ op: 'remove', path: ['fields', r.name] }])}>
                  <Button size="small" type="link" danger>
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Button style={{ marginTop: 12 }} icon={<PlusOutlined />} onClick={() => setEditing({})}>
        新增字段
      </Button>
      <Drawer open={!!editing} width={560} title={form.title} destroyOnClose onClose={() => setEditing(undefined)}>
        {editing && <FormPage bare schema={form} initialValues={initialValues} onSubmit={apply} />}
      </Drawer>
    </>
  );
}
