/**
 * What a draft does, before it is saved: the entity's list, form and detail rendered by the console's
 * own pages from the draft schemas on real rows of the development database, the database statements
 * (or the migration file a removal, type change or rename needs), and the file diffs.
 */
import { Component, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Empty, Input, Space, Tabs, Typography } from 'antd';
import { message } from '../feedback';
import { buildEntityRegistry } from '../../shared/entity/registry';
import { resolveDetail, resolveForm, resolveTable } from '../../schema/resolve';
import type { DetailSchemaFile, FormSchemaFile, TableSchemaFile } from '../../schema/types';
import { api } from '../../services/request';
import { TablePage } from '../pages/TablePage';
import { FormPage } from '../pages/FormPage';
import { DetailPage } from '../pages/DetailPage';
import type { StudioMigration } from '../../shared/studio';
import type { DatabasePreview, FileDraft } from './api';

/** A preview that cannot render (a draft with problems) says so instead of breaking the studio. */
class PreviewBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <Alert type="warning" showIcon message="草稿无法预览" description={this.state.error.message} /> : this.props.children;
  }
}

/** The page files of `dir` bound to `entity` in the draft. */
const pagesOf = (parsed: Record<string, unknown>, dir: string, entity: string) =>
  Object.entries(parsed).filter(([f, v]) => f.startsWith(`schemas/${dir}/`) && (v as { entity?: string })?.entity === entity);

function DetailPreview({ file, reg, listApi }: { file: DetailSchemaFile; reg: ReturnType<typeof buildEntityRegistry>; listApi?: string }) {
  const [id, setId] = useState<string>();
  useEffect(() => {
    if (!listApi) return;
    api
      .get<{ list: Array<Record<string, unknown>> }>(listApi, { current: 1, pageSize: 1 })
      .then((r) => setId(r.list[0] ? String(r.list[0].id) : ''))
      .catch(() => setId(''));
  }, [listApi]);
  if (id === undefined) return null;
  if (!id) return <Empty description="没有可预览的记录" />;
  return <DetailPage schema={resolveDetail(file, reg)} params={{ id }} />;
}

export function LivePreview({ parsed, entity }: { parsed: Record<string, unknown>; entity: string }) {
  const reg = useMemo(() => {
    try {
      return buildEntityRegistry(parsed);
    } catch (e) {
      return e as Error;
    }
  }, [parsed]);
  if (reg instanceof Error) return <Alert type="warning" showIcon message="草稿无法预览" description={reg.message} />;
  const tables = pagesOf(parsed, 'tables', entity);
  const forms = pagesOf(parsed, 'forms', entity);
  const details = pagesOf(parsed, 'details', entity);
  const listApi = tables[0] ? (tables[0][1] as { api?: string }).api : undefined;
  const tab = (key: string, label: string, items: Array<[string, unknown]>, render: (v: unknown) => ReactNode) => ({
    key,
    label: `${label}（${items.length}）`,
    children: items.length ? (
      <Space direction="vertical" style={{ width: '100%' }}>
        {items.map(([f, v]) => (
          <div key={f} data-testid={`studio-preview-${f}`}>
            <Typography.Text type="secondary">{f}</Typography.Text>
            <PreviewBoundary>{render(v)}</PreviewBoundary>
          </div>
        ))}
      </Space>
    ) : (
      <Empty description={`没有该实体的${label}`} />
    ),
  });
  return (
    <Tabs
      items={[
        tab('list', '列表', tables, (v) => <TablePage schema={resolveTable(v as TableSchemaFile, reg)} />),
        tab('form', '表单', forms, (v) => <FormPage schema={resolveForm(v as FormSchemaFile, reg)} onSubmit={() => void message.info('预览：校验通过，未提交')} />),
        tab('detail', '详情', details, (v) => <DetailPreview file={v as DetailSchemaFile} reg={reg} listApi={listApi} />),
      ]}
    />
  );
}

const pre = { background: '#f6f8fa', padding: 12, overflow: 'auto', fontSize: 12, margin: 0 } as const;

/** The statements the gateway will run, or the migration file the change needs (to adopt, maybe edited). */
export function DatabaseView({ db, migration, onMigration }: { db?: DatabasePreview; migration?: StudioMigration; onMigration: (m?: StudioMigration) => void }) {
  const [sql, setSql] = useState('');
  useEffect(() => setSql(db?.suggestion?.sql.join('\n') ?? ''), [db?.suggestion]);
  if (!db) return <Empty description="草稿有问题，修正后显示数据库变更" />;
  const lines = [...db.migrations.flatMap((m) => [`-- ${m.id}`, ...m.statements]), ...db.statements];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="studio-database">
      {db.error && <Alert type="error" showIcon message="数据库变更会失败" description={db.error} />}
      {db.problems.length > 0 && db.suggestion && (
        <Alert
          type="warning"
          showIcon
          message="该改动会删除或改动已有的列：需要迁移文件"
          description={
            <Space direction="vertical" style={{ width: '100%' }}>
              {db.problems.map((p) => (
                <div key={`${p.table}.${p.column}`}>
                  {p.kind === 'removed'
                    ? p.renamedTo
                      ? `${p.table}.${p.column} 看起来改名为 ${p.renamedTo.column}：迁移文件改列名，数据保留`
                      : `${p.table}.${p.column} 将被删除（其中的数据随之删除）`
                    : `${p.table}.${p.column} 类型 ${p.from} → ${p.to}`}
                </div>
              ))}
              <Typography.Text strong>{db.suggestion.file}</Typography.Text>
              <Input.TextArea aria-label="迁移文件语句" value={sql} autoSize={{ minRows: 3 }} onChange={(e) => setSql(e.target.value)} style={{ fontFamily: 'monospace' }} />
              <Button type="primary" onClick={() => onMigration({ file: db.suggestion!.file, sql: sql.split('\n').filter((l) => l.trim()) })}>
                采用该迁移文件
              </Button>
            </Space>
          }
        />
      )}
      {migration && (
        <Checkbox checked onChange={() => onMigration(undefined)}>
          保存时写入迁移文件 {migration.file}
        </Checkbox>
      )}
      {lines.length ? <pre style={pre} data-testid="studio-sql">{lines.join('\n')}</pre> : !db.problems.length && <Alert type="info" showIcon message="数据库无需变更" />}
    </Space>
  );
}

export function DiffView({ files }: { files: FileDraft[] }) {
  const changed = files.filter((f) => f.before !== f.after);
  if (!changed.length) return <Empty description="文件没有变化" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="studio-diff">
      {changed.map((f) => (
        <div key={f.file}>
          <Typography.Text strong>{f.file}</Typography.Text>
          <pre style={pre}>
            {f.diff
              .split('\n')
              .slice(2)
              .map((l, i) => (
                <div key={i} style={{ color: l.startsWith('+') ? '#1a7f37' : l.startsWith('-') ? '#cf222e' : undefined }}>
                  {l || ' '}
                </div>
              ))}
          </pre>
        </div>
      ))}
    </Space>
  );
}
