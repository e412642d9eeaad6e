import { useEffect, useMemo, useRef, useState } from 'react';
import { Image, Upload, type UploadFile, type UploadProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useField } from '@formily/react';
import { acceptAttr, checkFileType, extensionOf, FILE_TYPE_GROUPS } from '../../utils/upload';
import type { UploadSpec } from '../../schema/types';
import { api } from '../../services/request';
import { message } from '../feedback';
import { sendFile } from './sendFile';

export interface FileUploadProps extends UploadSpec {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** most files (the entity field's maxItems) */
  maxCount?: number;
}

interface Uploaded {
  id: number;
}

type Item = UploadFile<Uploaded>;

const RASTER = FILE_TYPE_GROUPS.image.filter((e) => e !== 'svg');
const isRaster = (name: string) => RASTER.includes(extensionOf(name));

/** The browser's check of one chosen file (the gateway checks type by bytes and size again). Null when fine. */
export function fileProblem(spec: Pick<FileUploadProps, 'accept' | 'exclude' | 'maxSizeMb'>, name: string, size: number): string | null {
  const ext = extensionOf(name);
  const allowed = spec.accept.flatMap((g) => FILE_TYPE_GROUPS[g]).filter((e) => !spec.exclude?.includes(e));
  if (!ext) return '文件名缺少扩展名';
  if (!checkFileType(name, spec.accept) || spec.exclude?.includes(ext)) return `不支持该文件类型，仅支持：${allowed.join('、')}`;
  if (spec.maxSizeMb && size > spec.maxSizeMb * 1024 * 1024) return `单个文件不能超过 ${spec.maxSizeMb} MB`;
  if (size === 0) return '文件为空';
  return null;
}

/**
 * Formily input for files: each chosen file is checked, uploaded at once with a progress bar and shown
 * with a thumbnail made from the local file (object URL); the value is the list of uploaded ids. While
 * a file is still uploading the field reports it (field.data.uploading), so the form is not submitted
 * without it.
 */
export function FileUpload(props: FileUploadProps) {
  const { value, onChange, api: uploadApi, accept, exclude, maxSizeMb, maxCount = 20 } = props;
  const field = useField() as unknown as { data?: Record<string, unknown> } | undefined;
  const [list, setList] = useState<Item[]>([]);
  const [preview, setPreview] = useState<string>();
  const urls = useRef(new Set<string>());
  const acceptList = useMemo(() => acceptAttr(accept).split(',').filter((e) => !exclude?.includes(e.slice(1))).join(','), [accept, exclude]);

  useEffect(() => {
    const own = urls.current;
    return () => own.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  // A reset form (value emptied from outside) empties the list too.
  useEffect(() => {
    if ((!value || value.length === 0) && list.some((i) => i.status === 'done')) setList([]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  const objectUrl = (file: File) => {
    const u = URL.createObjectURL(file);
    urls.current.add(u);
    return u;
  };

  const sync = (next: Item[]) => {
    setList(next);
    if (field) field.data = { ...field.data, uploading: next.filter((i) => i.status === 'uploading').length };
    const ids = next.filter((i) => i.status === 'done' && i.response).map((i) => i.response!.id);
    if (ids.join(',') !== (value ?? []).join(',')) onChange?.(ids);
  };

  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    const problem = fileProblem({ accept, exclude, maxSizeMb }, file.name, file.size);
    if (problem) {
      message.error(`${file.name}：${problem}`);
      return Upload.LIST_IGNORE;
    }
    if (list.length + batch.indexOf(file) >= maxCount) {
      message.error(`最多上传 ${maxCount} 个文件，${file.name} 未添加`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onProgress, onSuccess, onError }) => {
    const f = file as File;
    sendFile<Uploaded>(uploadApi, f, { onProgress: (percent) => onProgress?.({ percent }) })
      .then((data) => onSuccess?.(data))
      .catch((e: Error) => {
        message.error(`${f.name}：${e.message}`);
        onError?.(e);
      });
  };

  return (
    <>
      <Upload<Uploaded>
        listType="picture-card"
        multiple
        accept={acceptList}
        fileList={list}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onChange={({ fileList }) =>
          sync(
            fileList.map((i) => {
              const thumb = !i.thumbUrl && i.originFileObj && isRaster(i.name) ? objectUrl(i.originFileObj) : undefined;
              const failed = i.status === 'error' ? { response: undefined, error: i.error } : {};
              return thumb ? { ...i, thumbUrl: thumb, ...failed } : { ...i, ...failed };
            }),
          )
        }
        onRemove={(i) => {
          if (i.status === 'done' && i.response) api.del(`${uploadApi}/${i.response.id}`).catch(() => undefined);
          return true;
        }}
        onPreview={(i) => {
          if (i.thumbUrl) setPreview(i.thumbUrl);
          else if (i.originFileObj) window.open(objectUrl(i.originFileObj), '_blank', 'noopener');
        }}
      >
        {list.length < maxCount && (
          <div>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>上传文件</div>
          </div>
        )}
      </Upload>
      {preview && (
        <Image style={{ display: 'none' }} src={preview} preview={{ visible: true, src: preview, onVisibleChange: (v) => !v && setPreview(undefined) }} />
      )}
    </>
  );
}
