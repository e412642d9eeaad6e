import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIZ_ADMIN, BIZ_OPERATOR, BIZ_OTHER, makeIdCard, useFilesDir, useGateway } from './helpers.ts';
import { makePdf, makePng } from './png.ts';
import { CLAIM_ATTACHMENT_MAX_BYTES, CLAIM_ATTACHMENT_MAX_COUNT } from '../../src/shared/attachments.ts';
import claimEntity from '../../schemas/entities/claim.json' with { type: 'json' };

const files = useFilesDir('claim-files-'); // before the gateway, which stores files there
const c = useGateway();

async function upload(name: string, bytes: Buffer, opts: { biz?: string; type?: string; key?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'application/octet-stream' }), name);
  const headers: Record<string, string> = { authorization: `Bearer ${c.token}`, 'x-company-id': opts.biz ?? BIZ_ADMIN };
  if (opts.key) headers['idempotency-key'] = opts.key;
  const res = await fetch(`${c.origin}/api/claim-attachments`, { method: 'POST', headers, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

async function content(id: number, biz = BIZ_ADMIN, query = '') {
  return fetch(`${c.origin}/api/claim-attachments/${id}/content${query}`, {
    headers: { authorization: `Bearer ${c.token}`, 'x-company-id': biz },
  });
}

function storedFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(files.dir);
  return out;
}

const attachmentCount = async () =>
  (await c.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM claim_attachments'))[0].n;
const claimCount = async () =>
  (await c.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM claims WHERE business_id = $1', [BIZ_ADMIN]))[0].n;

/** A person of the admin business with cover today (claims inside the cover period are accepted). */
async function coveredPerson() {
  const [rec] = await c.server.db.query<{ person_name: string; id_card: string }>(
    `SELECT person_name, id_card FROM insure_records WHERE business_id = $1 AND status = 'effective'
       AND effective_date <= CURRENT_DATE AND expiry_date >= CURRENT_DATE ORDER BY id LIMIT 1`,
    [BIZ_ADMIN],
  );
  return rec;
}

const today = () => new Date().toISOString().slice(0, 10);

describe('claim attachments: upload and checks', () => {
  it('stores an uploaded photo: a metadata row without a claim and the same bytes under the files directory', async () => {
    const png = makePng(40, 30);
    const r = await upload('事故现场.PNG', png, { type: 'image/png' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ fileName: '事故现场.PNG', mime: 'image/png', size: png.length, isImage: true, claimId: null });
    const [row] = await c.server.db.query<any>('SELECT * FROM claim_attachments WHERE id = $1', [r.body.data.id]);
    expect(row).toMatchObject({ business_id: BIZ_ADMIN, claim_id: null, file_name: '事故现场.PNG', ext: 'png', mime: 'image/png', size_bytes: png.length });
    expect(row.storage_key).toMatch(/^claims\/B10001\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    expect(readFileSync(join(files.dir, row.storage_key)).equals(png)).toBe(true);
  });

  it('refuses a renamed .exe, HTML saved as .png, SVG, other types and names without an extension; nothing is stored', async () => {
    const before = await attachmentCount();
    const filesBefore = storedFiles().length;
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
    const cases: Array<[string, Buffer, string]> = [
      ['photo.png', exe, '文件内容与扩展名不符（实际为可执行文件）'],
      ['bill.pdf', exe, '文件内容与扩展名不符（实际为可执行文件）'],
      ['photo.png', Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), '文件内容与扩展名不符（实际为未知格式）'],
      ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), '不支持 SVG 图片，请上传照片（JPG、PNG 等）或 PDF'],
      ['setup.exe', exe, '文件类型不支持，仅支持：apng、avif、gif、ico、jpg、jpeg、jfif、pjpeg、pjp、png、webp、pdf'],
      ['report.docx', Buffer.from('PK\u0003\u0004'), '文件类型不支持，仅支持：apng、avif、gif、ico、jpg、jpeg、jfif、pjpeg、pjp、png、webp、pdf'],
      ['photo', makePng(2, 2), '文件名缺少扩展名'],
      ['empty.png', Buffer.alloc(0), '文件为空'],
    ];
    for (const [name, bytes, message] of cases) {
      const r = await upload(name, bytes);
      expect(r.status, name).toBe(400);
      expect(r.body.message, name).toBe(message);
      expect(r.body.errors, name).toEqual([{ field: 'file', message }]);
    }
    expect(await attachmentCount()).toBe(before);
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('refuses a file over 10 MB with a Chinese message', async () => {
    const before = await attachmentCount();
    const big = Buffer.concat([makePng(2, 2), Buffer.alloc(CLAIM_ATTACHMENT_MAX_BYTES)]);
    const r = await upload('big.png', big);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'file', message: '单个文件不能超过 10 MB' }]);
    expect(await attachmentCount()).toBe(before);
  });

  it('a replayed upload with the same Idempotency-Key stores one row and one file', async () => {
    const png = makePng(5, 5, [0, 0, 255]);
    const before = await attachmentCount();
    const filesBefore = storedFiles().length;
    const a = await upload('retry.png', png, { key: 'upload-retry-1' });
    const b = await upload('retry.png', png, { key: 'upload-retry-1' });
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(await attachmentCount()).toBe(before + 1);
    expect(storedFiles().length).toBe(filesBefore + 1);
  });
});

describe('claim attachments: serving', () => {
  it('serves an image with its image type and a PDF as an attachment, both nosniff, only within the business', async () => {
    const png = makePng(8, 8);
    const img = (await upload('伤情.png', png)).body.data;
    const r = await content(img.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await r.arrayBuffer()).equals(png)).toBe(true);
    const dl = await content(img.id, BIZ_ADMIN, '?download=1');
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment;.*filename\*=UTF-8''%E4%BC%A4%E6%83%85\.png$/);

    const pdf = (await upload('医疗票据.pdf', makePdf())).body.data;
    expect(pdf).toMatchObject({ mime: 'application/pdf', isImage: false });
    const p = await content(pdf.id);
    expect(p.headers.get('content-type')).toBe('application/pdf');
    expect(p.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(p.headers.get('x-content-type-options')).toBe('nosniff');

    // The same user in their other business, and a business they do not belong to.
    const other = await content(img.id, BIZ_OPERATOR);
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).message).toBe(`当前企业下不存在该理赔材料（ID：${img.id}）`);
    expect((await content(img.id, BIZ_OTHER)).status).toBe(403);
    // Nor can the other business delete it.
    expect((await c.call('DELETE', `/api/claim-attachments/${img.id}`, { biz: BIZ_OPERATOR })).status).toBe(404);
  });
});

describe('claim attachments: a claim links them in its transaction', () => {
  it('links the uploaded files to the new claim, records their ids, and lists them with the claim', async () => {
    const person = await coveredPerson();
    const a = (await upload('现场.png', makePng(12, 12))).body.data;
    const b = (await upload('发票.pdf', makePdf())).body.data;
    const r = await c.call('POST', '/api/claims', {
      body: { personName: person.person_name, idCard: person.id_card, accidentDate: today(), accidentType: '意外伤害', description: '搬运时摔伤', amount: 800, attachmentIds: [a.id, b.id] },
    });
    expect(r.status).toBe(200);
    const claimId = r.body.data.id;
    const rows = await c.server.db.query<{ id: number; claim_id: number }>('SELECT id, claim_id FROM claim_attachments WHERE id = ANY($1::int[]) ORDER BY id', [[a.id, b.id]]);
    expect(rows.map((x) => x.claim_id)).toEqual([claimId, claimId]);
    const [claim] = await c.server.db.query<{ attachment_ids: string[] }>('SELECT attachment_ids FROM claims WHERE id = $1', [claimId]);
    expect(claim.attachment_ids).toEqual([String(a.id), String(b.id)]);
    const list = await c.call('GET', `/api/claims/${claimId}/attachments`);
    expect(list.body.data.list.map((x: any) => [x.id, x.fileName, x.isImage])).toEqual([
      [a.id, '现场.png', true],
      [b.id, '发票.pdf', false],
    ]);
    // Another business sees neither the claim's attachment list nor the files.
    expect((await c.call('GET', `/api/claims/${claimId}/attachments`, { biz: BIZ_OPERATOR })).status).toBe(404);
    // A submitted file can no longer be deleted.
    const del = await c.call('DELETE', `/api/claim-attachments/${a.id}`);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('该文件已随理赔申请提交，不能删除');

    // The same file on a second claim: refused on the field, and no second claim is stored.
    const before = await claimCount();
    const again = await c.call('POST', '/api/claims', {
      body: { personName: person.person_name, idCard: person.id_card, accidentDate: today(), accidentType: '意外伤害', description: '再次报案', amount: 10, attachmentIds: [a.id] },
    });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([{ field: 'attachmentIds', message: `理赔材料（编号 ${a.id}）不存在或已用于其他理赔申请，请重新上传` }]);
    expect(await claimCount()).toBe(before);
  });

  it('refuses a claim with another business’s file, or outside cover, and leaves its files unlinked (one transaction)', async () => {
    const person = await coveredPerson();
    const foreign = (await upload('other.png', makePng(3, 3), { biz: BIZ_OPERATOR })).body.data;
    const mine = (await upload('mine.png', makePng(3, 3))).body.data;
    const before = await claimCount();
    const r = await c.call('POST', '/api/claims', {
      body: { personName: person.person_name, idCard: person.id_card, accidentDate: today(), accidentType: '意外伤害', description: '摔伤', amount: 5, attachmentIds: [mine.id, foreign.id] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: 'attachmentIds', message: `理赔材料（编号 ${foreign.id}）不存在或已用于其他理赔申请，请重新上传` }]);
    expect(await claimCount()).toBe(before);
    // mine was linked inside the refused transaction: rolled back with the claim.
    const [row] = await c.server.db.query<{ claim_id: number | null }>('SELECT claim_id FROM claim_attachments WHERE id = $1', [mine.id]);
    expect(row.claim_id).toBeNull();

    const stranger = await c.call('POST', '/api/claims', {
      body: { personName: '周建国', idCard: makeIdCard('110101', '19800808', 9), accidentDate: today(), accidentType: '意外伤害', description: '摔伤', amount: 5, attachmentIds: [mine.id] },
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toBe('该人员在本企业无有效保单');
    expect(await claimCount()).toBe(before);
    const [still] = await c.server.db.query<{ claim_id: number | null }>('SELECT claim_id FROM claim_attachments WHERE id = $1', [mine.id]);
    expect(still.claim_id).toBeNull();
  });

  it('checks the attachment list itself: count limit (same as the entity rule), duplicates, shape', async () => {
    expect(claimEntity.fields.attachmentIds.maxItems).toBe(CLAIM_ATTACHMENT_MAX_COUNT);
    const person = await coveredPerson();
    const body = { personName: person.person_name, idCard: person.id_card, accidentDate: today(), accidentType: '意外伤害', description: '摔伤', amount: 5 };
    const many = await c.call('POST', '/api/claims', { body: { ...body, attachmentIds: Array.from({ length: CLAIM_ATTACHMENT_MAX_COUNT + 1 }, (_, i) => i + 1) } });
    expect(many.status).toBe(400);
    expect(many.body.errors).toEqual([{ field: 'attachmentIds', message: '理赔材料最多 20 条' }]);
    const dup = await c.call('POST', '/api/claims', { body: { ...body, attachmentIds: [1, 1] } });
    expect(dup.body.errors).toEqual([{ field: 'attachmentIds', message: '理赔材料中有重复的文件' }]);
    const bad = await c.call('POST', '/api/claims', { body: { ...body, attachmentIds: [-3] } });
    expect(bad.body.errors).toEqual([{ field: 'attachmentIds', message: '理赔材料格式不正确' }]);
  });

  it('deletes a file that is not on a claim yet (row and bytes)', async () => {
    const a = (await upload('wrong.png', makePng(4, 4))).body.data;
    const [row] = await c.server.db.query<{ storage_key: string }>('SELECT storage_key FROM claim_attachments WHERE id = $1', [a.id]);
    const del = await c.call('DELETE', `/api/claim-attachments/${a.id}`);
    expect(del.status).toBe(200);
    expect((await c.server.db.query('SELECT id FROM claim_attachments WHERE id = $1', [a.id])).length).toBe(0);
    expect(() => statSync(join(files.dir, row.storage_key))).toThrow();
  });
});
