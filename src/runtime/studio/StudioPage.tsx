/**
 * The schema studio (development only: `npm run dev`, /studio; docs/schema-studio.md). Every schema file
 * with where it is used; an entity's fields edited through forms made from the meta schema; the draft's
 * live preview, database statements and file diffs; save writes the files as a person would, runs
 * codegen, and the dev servers reload the console and the gateway.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Input, Layout, Menu, Row, Select, Space, Tabs, Tag, Typography } from 'antd';
import { message } from '../feedback';
import { ApiError } from '../../services/request';
import type { SchemaEdit } from '../../shared/studio';
import { parseFiles, studioApi, type Draft, type PreviewResult, type SaveResult, type StudioFiles } from './api';
import { addEdits } from './draft';
import { FieldList } from './FieldList';
import { DatabaseView, DiffView, LivePreview } from './StudioPreview';
import type { MetaNode } from './metaForm';

const LAST_SAVE = 'studio:last-save';
const GROUPS: Array<[string, string]> = [
  ['schemas/entities/', '实体'],
  ['schemas/tables/', '列表'],
  ['schemas/forms/', '表单'],
  ['schemas/details/', '详情'],
  ['schemas/routes', '路由'],
];

/** The files, retried while the gateway starts again after a save (src/server/schema-reload.ts). */
async function loadFiles(tries = 40): Promise<StudioFiles> {
  for (let i = 0; ; i++) {
    try {
      return await studioApi.files();
    } catch (e) {
      if (i >= tries || (e instanceof ApiError && e.status >= 400 && e.status < 500)) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export function StudioPage() {
  const [base, setBase] = useState<StudioFiles>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState('schemas/entities/insured-person.json');
  const [draft, setDraft] = useState<Draft>({ changes: [] });
  const [preview, setPreview] = useState<PreviewResult>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<SaveResult | undefined>(() => JSON.parse(sessionStorage.getItem(LAST_SAVE) ?? 'null') ?? undefined);
  const [pageLabel, setPageLabel] = useState('');
  const [pageIcon, setPageIcon] = useState<string>();

  const reload = useCallback(() => loadFiles().then(setBase, (e: Error) => setError(e.message)), []);
  useEffect(() => void reload(), [reload]);

  // Every change of the draft is previewed at once (files, problems, database).
  useEffect(() => {
    if (!draft.changes.length) return setPreview(undefined);
    let live = true;
    studioApi.preview(draft).then(
      (p) => live && setPreview(p),
      (e: Error) => live && message.error(e.message),
    );
    return () => {
      live = false;
    };
  }, [draft]);

  const parsed = useMemo(() => {
    if (!base) return {};
    const out = parseFiles(base.files);
    for (const f of preview?.files ?? []) Object.assign(out, parseFiles({ [f.file]: f.after }));
    return out;
  }, [base, preview]);
  const metas = useMemo(() => Object.fromEntries(Object.entries(parsed).filter(([f]) => f.startsWith('schemas/meta/'))) as Record<string, MetaNode>, [parsed]);

  if (error) return <Alert type="error" showIcon message="无法打开配置工作台" description={error} style={{ margin: 24 }} />;
  if (!base) return null;

  const files = Object.keys(parsed).filter((f) => !f.startsWith('schemas/meta/')).sort();
  const entityName = /^schemas\/entities\/(.+)\.json$/.exec(selected)?.[1];
  const entity = parsed[selected] as { label?: string; storage?: boolean; fields: Record<string, Record<string, unknown> | string> } | undefined;
  const usage = base.usage[selected] ?? [];
  const hasList = !!entityName && files.some((f) => f.startsWith('schemas/tables/') && (parsed[f] as { entity?: string }).entity === entityName);
  const count = draft.changes.reduce((n, c) => n + (c.create ? 1 : (c.edits?.length ?? 0)), 0);

  const edit = (edits: SchemaEdit[]) => setDraft((d) => ({ ...d, changes: addEdits(d.changes, selected, edits) }));
  const save = async () => {
    setSaving(true);
    try {
      const r = await studioApi.save(draft);
      sessionStorage.setItem(LAST_SAVE, JSON.stringify(r));
      setSaved(r);
      setDraft({ changes: [] });
      message.success(`已保存 ${r.written.length} 个文件；网关与控制台正在重新加载`);
      await reload();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const addPages = async () => {
    const { changes } = await studioApi.pages(entityName!, pageLabel || entity?.label || entityName!, pageIcon);
    setDraft((d) => ({ ...d, changes: [...d.changes, ...changes] }));
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ background: '#fff', display: 'flex', alignItems: 'center', gap: 16, borderBottom: '1px solid #f0f0f0' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          配置工作台
        </Typography.Title>
        <Tag color="orange">仅开发环境</Tag>
        <span style={{ flex: 1 }} />
        <span data-testid="studio-draft-count">{count ? `草稿：${count} 处改动` : '没有未保存的改动'}</span>
        <Button disabled={!count} onClick={() => setDraft({ changes: [] })}>
          放弃改动
        </Button>
        <Button type="primary" disabled={!count || !preview || preview.issues.length > 0} loading={saving} onClick={() => void save()}>
          保存
        </Button>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={280} theme="light" style={{ borderRight: '1px solid #f0f0f0', overflow: 'auto' }}>
          <Menu
            mode="inline"
            selectedKeys={[selected]}
            defaultOpenKeys={['schemas/entities/']}
            onClick={(e) => setSelected(e.key)}
            items={GROUPS.map(([prefix, label]) => ({
              key: prefix,
              label,
              children: files
                .filter((f) => f.startsWith(prefix))
                .map((f) => ({ key: f, label: `${(parsed[f] as { label?: string; title?: string }).label ?? (parsed[f] as { title?: string }).title ?? ''} ${f.split('/').pop()!.replace('.json', '')}` })),
            }))}
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: 16 }}>
          <Space direction="vertical" style={{ width: '100%' }} size="middle">
            {preview && preview.issues.length > 0 && (
              <Alert type="error" showIcon message={`草稿有 ${preview.issues.length} 处问题，不能保存`} description={preview.issues.map((i) => <div key={i.file + i.path}>{`${i.file} ${i.path}：${i.reason}`}</div>)} />
            )}
            {saved && !count && (
              <Card size="small" title={`已保存：${saved.written.join('，')}`} extra={<Button size="small" onClick={() => (sessionStorage.removeItem(LAST_SAVE), setSaved(undefined))}>关闭</Button>}>
                <DiffView files={saved.files} />
              </Card>
            )}
            <Card size="small" title={`${entity?.label ?? ''} ${selected}`}>
              <Typography.Paragraph type="secondary" data-testid="studio-usage">
                {usage.length ? `使用方：${usage.join('；')}` : '没有页面或实体使用它'}
              </Typography.Paragraph>
              {entityName && entity ? (
                <FieldList entity={entity} metas={metas} onEdits={edit} />
              ) : (
                <pre style={{ maxHeight: 360, overflow: 'auto', fontSize: 12 }}>{JSON.stringify(parsed[selected], null, 2)}</pre>
              )}
              {entityName && entity?.storage !== false && !hasList && (
                <Space style={{ marginTop: 12 }}>
                  <Input placeholder={`菜单名称（默认 ${entity?.label ?? entityName}）`} value={pageLabel} onChange={(e) => setPageLabel(e.target.value)} />
                  <Select placeholder="图标" allowClear style={{ width: 200 }} value={pageIcon} onChange={setPageIcon} options={base.icons.map((i) => ({ value: i, label: i }))} />
                  <Button onClick={() => void addPages()}>加入菜单（列表、表单、详情）</Button>
                </Space>
              )}
            </Card>
            {count > 0 && preview && (
              <Row gutter={16}>
                <Col span={24}>
                  <Card size="small" title="预览">
                    <Tabs
                      items={[
                        ...(entityName ? [{ key: 'live', label: '页面预览', children: <LivePreview parsed={parsed} entity={entityName} /> }] : []),
                        { key: 'db', label: '数据库变更', children: <DatabaseView db={preview.database} migration={draft.migration} onMigration={(m) => setDraft((d) => ({ ...d, migration: m }))} /> },
                        { key: 'diff', label: '文件差异', children: <DiffView files={preview.files} /> },
                      ]}
                    />
                  </Card>
                </Col>
              </Row>
            )}
          </Space>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
