import { useMemo, useRef, useState } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { inSetOrder, type ColumnsStateControl, type ColumnsStateMap } from './columnsState';
import type { TableSchema } from '../../schema/types';
import { api, ApiError, authHeaders } from '../../services/request';
import { serviceUrl } from '../../services/endpoints';
import { serializeParams } from '../../utils/query';
import { fileNameFromContentDisposition, saveBlob } from '../../utils/download';
import { message } from '../feedback';

export type ExportFormat = 'xlsx' | 'csv';

type Query = Record<string, string | number>;

const TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv;charset=utf-8',
};

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The table's columns the user sees now (column settings applied), in their shown order. */
export function visibleColumns(schema: TableSchema, state: ColumnsStateMap): string[] {
  return inSetOrder(schema.columns, (c) => c.dataIndex, state)
    .filter((c) => !c.hideInTable && c.valueType !== 'dateRange' && state[c.dataIndex]?.show !== false)
    .map((c) => c.dataIndex);
}

/** GET <list api>/export with the list's current filters and sort (no paging), the format and the columns. */
export function exportUrl(schema: TableSchema, query: Query, format: ExportFormat, columns: string[]): string {
  const { current: _c, pageSize: _p, ...filters } = query;
  void _c;
  void _p;
  return `${serviceUrl(`${schema.api}/export`, 'business')}?${serializeParams({ ...filters, format, columns: columns.join(',') })}`;
}

/** Fetches the export with the session headers (renewing an expired session once). */
async function request(url: string): Promise<Response> {
  const get = () => fetch(url, { credentials: 'same-origin', headers: authHeaders() });
  let res = await get();
  if (res.status === 401 && (await api.get('/api/businesses').then(() => true, () => false))) res = await get();
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { message?: string; errors?: Array<{ field: string; message: string }> } | undefined;
    throw new ApiError(body?.message || `导出失败（${res.status}）`, res.status, -1, body?.errors ?? []);
  }
  return res;
}

/**
 * Downloads a list export, reading the stream so the progress message can show what has arrived
 * (rows from the gateway's X-Export-Rows, bytes as they come), then saves it. Answers the row count as shown.
 */
export async function downloadExport(url: string, format: ExportFormat, fallbackName: string, onProgress: (text: string) => void): Promise<string> {
  const res = await request(url);
  const rows = Number(res.headers.get('X-Export-Rows') ?? 0);
  const count = `${res.headers.get('X-Export-Rows-Estimated') === 'true' ? '约 ' : ''}${rows}`;
  const length = Number(res.headers.get('Content-Length') ?? 0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  let shown = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (received - shown > 64 * 1024) {
        shown = received;
        onProgress(`正在导出 ${count} 条记录… 已接收 ${size(received)}${length ? `（${Math.round((received / length) * 100)}%）` : ''}`);
      }
    }
  } else {
    chunks.push(new Uint8Array(await res.arrayBuffer()));
  }
  const name = fileNameFromContentDisposition(res.headers.get('Content-Disposition')) || fallbackName;
  saveBlob(new Blob(chunks as BlobPart[], { type: TYPES[format] }), name);
  return count;
}

export interface TableExport {
  /** The list's column settings, kept here so the export knows which columns are shown and in what order. */
  columnsState?: ColumnsStateControl;
  /** The toolbar button (导出 Excel, with 导出 CSV in its menu), or undefined when the list cannot be exported. */
  button?: JSX.Element;
}

/**
 * Export of an entity list: .xlsx (or .csv) made by the gateway from the list's current filters, sort
 * and shown columns, with a progress message while it downloads. `getQuery` returns the query of the
 * list's last load.
 */
export function useTableExport(schema: TableSchema, getQuery: () => Query): TableExport {
  const [columns, setColumns] = useState<ColumnsStateMap>({});
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const enabled = Boolean(schema.entity) && schema.exportable !== false;

  const run = async (format: ExportFormat) => {
    if (running.current) return;
    const cols = visibleColumns(schema, columns);
    if (cols.length === 0) {
      message.warning('请至少显示一列再导出');
      return;
    }
    running.current = true;
    setBusy(true);
    const key = `export-${schema.id}`;
    message.open({ key, type: 'loading', content: '正在准备导出…', duration: 0 });
    try {
      const url = exportUrl(schema, getQuery(), format, cols);
      const count = await downloadExport(url, format, `${schema.title}.${format}`, (content) => message.open({ key, type: 'loading', content, duration: 0 }));
      message.open({ key, type: 'success', content: `已导出 ${count} 条记录`, duration: 3 });
    } catch (e) {
      message.open({ key, type: 'error', content: e instanceof ApiError ? e.message : '导出失败，请稍后重试', duration: 4 });
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const button = useMemo(
    () =>
      enabled ? (
        <Space.Compact key="__export">
          <Button icon={<DownloadOutlined />} loading={busy} onClick={() => run('xlsx')}>
            导出 Excel
          </Button>
          <Dropdown
            disabled={busy}
            menu={{
              items: [
                { key: 'xlsx', label: '导出 Excel（.xlsx）' },
                { key: 'csv', label: '导出 CSV（.csv）' },
              ],
              onClick: ({ key }) => run(key as ExportFormat),
            }}
          >
            <Button icon={<DownOutlined />} aria-label="选择导出格式" />
          </Dropdown>
        </Space.Compact>
      ) : undefined,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [enabled, busy, columns, schema],
  );

  return enabled ? { columnsState: { value: columns, onChange: setColumns }, button } : {};
}
