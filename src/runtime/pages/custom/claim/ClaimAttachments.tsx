import { useEffect, useState } from 'react';
import { Alert, Button, Card, Empty, Image, List, Space, Spin } from 'antd';
import { DownloadOutlined, EyeOutlined, FilePdfOutlined } from '@ant-design/icons';
import { api, ApiError } from '../../../../services/request';
import { message } from '../../../feedback';
import { saveBlob } from '../../../../utils/download';
import { downloadAttachment, fetchAttachment, formatSize, type Attachment } from './attachmentFiles';

const THUMB = 104;

/** One photo: fetched with the session, shown as a CSS-sized thumbnail; a click opens the larger preview. */
function Photo({ a }: { a: Attachment }) {
  const [src, setSrc] = useState<string>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const ctl = new AbortController();
    let url: string | undefined;
    fetchAttachment(a.id, ctl.signal)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => !ctl.signal.aborted && setFailed(true));
    return () => {
      ctl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [a.id]);
  const box = { width: THUMB, height: THUMB, display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px solid #f0f0f0', borderRadius: 8 } as const;
  if (failed) return <div style={box}>无法显示</div>;
  if (!src) return <div style={box}><Spin size="small" /></div>;
  return (
    <Image
      src={src}
      alt={a.fileName}
      title={a.fileName}
      width={THUMB}
      height={THUMB}
      style={{ objectFit: 'cover', borderRadius: 8, border: '1px solid #f0f0f0' }}
    />
  );
}

/** A PDF: opened in a new tab (the browser's PDF viewer) or saved. */
function Document({ a }: { a: Attachment }) {
  const open = async () => {
    const win = window.open('', '_blank');
    try {
      const blob = await fetchAttachment(a.id);
      const url = URL.createObjectURL(blob);
      if (win) win.location.href = url;
      else saveBlob(blob, a.fileName);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      win?.close();
      message.error(e instanceof ApiError ? e.message : '文件打开失败');
    }
  };
  const save = () => downloadAttachment(a).catch((e: Error) => message.error(e.message || '下载失败'));
  return (
    <List.Item
      actions={[
        <Button key="open" type="link" icon={<EyeOutlined />} onClick={open}>预览</Button>,
        <Button key="save" type="link" icon={<DownloadOutlined />} onClick={save}>下载</Button>,
      ]}
    >
      <List.Item.Meta avatar={<FilePdfOutlined style={{ fontSize: 28, color: '#cf1322' }} />} title={a.fileName} description={formatSize(a.size)} />
    </List.Item>
  );
}

/** 理赔材料 of a claim in its detail: photo thumbnails (preview on click) and PDFs (preview / download). */
export function ClaimAttachments({ claimId }: { claimId: string }) {
  const [list, setList] = useState<Attachment[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    setList(undefined);
    setError(undefined);
    api
      .get<{ list: Attachment[] }>(`/api/claims/${encodeURIComponent(claimId)}/attachments`)
      .then((r) => live && setList(r.list))
      .catch((e) => live && setError(e instanceof ApiError ? e.message : '理赔材料加载失败'));
    return () => {
      live = false;
    };
  }, [claimId]);
  const photos = list?.filter((a) => a.isImage) ?? [];
  const docs = list?.filter((a) => !a.isImage) ?? [];
  return (
    <Card title="理赔材料" size="small" style={{ marginTop: 16 }} data-testid="claim-attachments">
      {error && <Alert type="error" showIcon message={error} />}
      {!error && !list && <Spin />}
      {list && list.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未上传理赔材料" />}
      {photos.length > 0 && (
        <Image.PreviewGroup>
          <Space wrap size={12}>
            {photos.map((a) => (
              <Photo key={a.id} a={a} />
            ))}
          </Space>
        </Image.PreviewGroup>
      )}
      {docs.length > 0 && <List size="small" dataSource={docs} renderItem={(a) => <Document a={a} />} />}
    </Card>
  );
}
