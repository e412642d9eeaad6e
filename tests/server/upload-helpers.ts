import ExcelJS from 'exceljs';
import { earliestCoverStart } from '../../src/server/domain/cover.ts';
import { BIZ_ADMIN, makeIdCard, toRes, useFilesDir, useGateway, type Client, type Res } from './helpers.ts';

export { makeIdCard };

/** For an upload test file: a signed-in gateway with demo data whose stored files go to a fresh temporary directory. */
export function useUploadGateway(): Client & { readonly filesDir: string } {
  const files = useFilesDir('upload-files-');
  return Object.defineProperty(useGateway({}, 120_000), 'filesDir', { get: () => files.dir }) as Client & { readonly filesDir: string };
}

export const START = () => earliestCoverStart();

export async function monthPlan(c: Client): Promise<string> {
  const r = await c.call('GET', '/api/plans?unit=month');
  return r.body.data[0].value as string;
}

/** POST a multipart upload; `fields` are sent before the file. */
export async function upload(
  c: Client,
  file: { name: string; bytes: Buffer | Uint8Array } | null,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Res> {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const res = await fetch(`${c.origin}/api/insure-uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${c.token}`, 'x-company-id': BIZ_ADMIN, ...headers },
    body: fd,
  });
  return toRes(res);
}

/** Polls the upload until its parse has finished; returns the final status view. */
export async function waitParsed(c: Client, id: number, biz?: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const r = await c.call('GET', `/api/insure-uploads/${id}`, { biz });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    if (r.body.data.status !== 'parsing') return r.body.data;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('parse did not finish');
}

/** Polls the upload until its confirmation job has finished (status no longer 'confirming'); every view seen goes to `seen`. */
export async function waitConfirmed(c: Client, id: number, seen: any[] = [], biz?: string): Promise<any> {
  for (let i = 0; i < 1200; i++) {
    const r = await c.call('GET', `/api/insure-uploads/${id}`, { biz });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    seen.push(r.body.data);
    if (r.body.data.status !== 'confirming') return r.body.data;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('confirmation did not finish');
}

/**
 * The parsed rows of an upload as the browser reads them: the preview (its head and first page of rows),
 * then every further page of /rows. The preview's first page is checked to be /rows?page=0.
 */
export async function previewRows(c: Client, id: number): Promise<{ head: any; rowNumbers: number[]; rows: string[][]; errors: any[]; duplicates: any[] }> {
  const p = await c.call('GET', `/api/insure-uploads/${id}/preview`);
  if (p.status !== 200) throw new Error(JSON.stringify(p.body));
  const { firstPage, ...head } = p.body.data;
  const out = { head, rowNumbers: [] as number[], rows: [] as string[][], errors: [] as any[], duplicates: [] as any[] };
  for (let page = 0; page < head.result.pages; page++) {
    const r = await c.call('GET', `/api/insure-uploads/${id}/rows?page=${page}`);
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    if (page === 0 && JSON.stringify(firstPage) !== JSON.stringify(r.body.data)) throw new Error(`the preview's first page differs from /rows?page=0: ${JSON.stringify(firstPage)?.slice(0, 200)}`);
    out.rowNumbers.push(...r.body.data.rowNumbers);
    out.rows.push(...r.body.data.rows);
    out.errors.push(...r.body.data.errors);
    out.duplicates.push(...r.body.data.duplicates);
  }
  if (!head.result.pages && firstPage !== undefined) throw new Error('a preview without pages has a first page');
  return out;
}

/** GET a binary response. */
export async function getBytes(c: Client, path: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(c.origin + path, { headers: { authorization: `Bearer ${c.token}`, 'x-company-id': BIZ_ADMIN } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** A roster workbook as Excel would save it: header row then the given rows. */
export async function rosterXlsx(rows: string[][], header = ['姓名', '身份证号', '手机号', '工种']): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function balanceCents(c: Client, biz = BIZ_ADMIN): Promise<number> {
  const [r] = await c.server.db.query<{ b: number }>('SELECT balance_cents::float8 AS b FROM businesses WHERE id = $1', [biz]);
  return Number(r.b);
}

export async function count(c: Client, sql: string, params: unknown[] = []): Promise<number> {
  const [r] = await c.server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return r.n;
}
