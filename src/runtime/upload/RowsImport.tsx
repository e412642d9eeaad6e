/**
 * 导入名单 above a form's roster table (the attendance tab): the file goes to the gateway's roster
 * reader (POST /api/insure-uploads/read), the same reader the roster upload uses — xlsx, xls or csv,
 * the encoding of a CSV saved by Excel (GBK) detected, headers matched by name in any order, the
 * template's example row and cells Excel damaged found — so the header row is never a person. Rows are
 * appended to the table; rows the reader found wrong are listed under the button (the table's own
 * checks mark their cells when submitting), the template's example row is left out.
 */
import { useState } from 'react';
import { Alert, Button, Space, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useForm } from '@formily/react';
import { ApiError } from '../../services/request';
import { extensionOf } from '../../utils/upload';
import { message } from '../feedback';
import { ACCEPT } from '../pages/custom/upload/useRosterUpload';
import { sendFile } from './sendFile';

export interface RowsImportProps {
  /** The form's roster field (the table filled). */
  target: string;
  /** The form's entity: its roster field gives the columns the gateway maps. */
  entity?: string;
  columns: Array<{ name: string; title: string }>;
}

/** What the gateway's reader answers (src/server/routes/insure-upload-read.ts). */
export interface ReadRows {
  columns: Array<{ key: string; label: string }>;
  rowNumbers: number[];
  rows: string[][];
  errors: Array<{ row: number; column: string; label: string; message: string }>;
  duplicates: Array<{ row: number; firstRow?: number; message: string }>;
  unknownHeaders: string[];
}

const EXAMPLE_ROW = '这是模板中的示例行，请删除后重新上传';
const SHOWN = 5;

/** The rows to append (objects by column key, without the template's example row) and what to tell the user. */
export function importedRows(r: ReadRows): { rows: Record<string, string>[]; skipped: number; problems: string[] } {
  const example = new Set(r.errors.filter((e) => e.message === EXAMPLE_ROW).map((e) => e.row));
  const rows: Record<string, string>[] = [];
  r.rows.forEach((cells, i) => {
    if (!example.has(r.rowNumbers[i])) rows.push(Object.fromEntries(r.columns.map((c, j) => [c.key, cells[j] ?? ''])));
  });
  const problems = [
    ...r.errors.filter((e) => !example.has(e.row)).map((e) => ({ row: e.row, text: `第 ${e.row} 行 ${e.label}：${e.message}` })),
    ...r.duplicates.map((d) => ({ row: d.row, text: `第 ${d.row} 行：${d.message}` })),
  ]
    .sort((a, b) => a.row - b.row)
    .map((p) => p.text);
  return { rows, skipped: example.size, problems };
}

export function RowsImport(props: RowsImportProps) {
  const form = useForm();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [problems, setProblems] = useState<string[]>([]);

  const importFile = async (file: File) => {
    setError(undefined);
    setProblems([]);
    const ext = extensionOf(file.name);
    if (!ACCEPT.includes(ext)) return setError(ext ? `文件类型不支持，仅支持：${ACCEPT.join('、')}` : '文件名缺少扩展名');
    setBusy(true);
    try {
      const r = await sendFile<ReadRows>('/api/insure-uploads/read', file, { fields: { entity: props.entity ?? '', field: props.target } });
      const { rows, skipped, problems: found } = importedRows(r);
      if (!rows.length) return setError(skipped ? '文件中只有模板示例行，请填写人员后重新导入' : '文件中只有表头，没有人员数据');
      const current = form.getValuesIn(props.target);
      form.setValuesIn(props.target, [...(Array.isArray(current) ? current : []), ...rows]);
      setProblems(found);
      const note = skipped ? '（已跳过模板示例行）' : '';
      if (found.length) message.warning(`已导入 ${rows.length} 人${note}，其中 ${found.length} 处需修改`);
      else message.success(`已导入 ${rows.length} 人${note}`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '导入失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ marginBottom: 8 }} data-testid="rows-import">
      <Upload
        accept={ACCEPT.map((e) => `.${e}`).join(',')}
        showUploadList={false}
        disabled={busy}
        beforeUpload={(file) => {
          void importFile(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          导入名单（Excel / CSV）
        </Button>
      </Upload>
      <span style={{ color: 'rgba(0, 0, 0, 0.65)' }}>
        支持 {ACCEPT.join('、')}；表头：{props.columns.map((c) => c.title).join('，')}
      </span>
      {error && <Alert type="error" showIcon message={error} data-testid="rows-import-error" />}
      {problems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="rows-import-problems"
          message={`导入的名单中有 ${problems.length} 处需修改`}
          description={problems.slice(0, SHOWN).join('；') + (problems.length > SHOWN ? `；等 ${problems.length} 处` : '')}
        />
      )}
    </Space>
  );
}
