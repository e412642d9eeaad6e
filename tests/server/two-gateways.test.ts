/**
 * Two gateways on one PostgreSQL behind nginx (round-robin), as the README's deployment section sets
 * them up: onboarding with `npm run admin`, sign-in, a roster upload, a claim with an attachment, a
 * payment and an export with requests alternating between the gateways; then one gateway is killed
 * with -9 in the middle of a confirmation job and the other finishes it, nothing lost or doubled.
 * Needs TEST_DATABASE_URL and nginx (.ci/run installs it); in CI neither may be missing.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../src/server/db.ts';
import { earliestCoverStart } from '../../src/server/domain/cover.ts';
import { nginxBinary, startGateway, startNginx, type Gateway, type Proxy } from './cluster.ts';
import { runAdmin, useSmsDouble } from './deploy-helpers.ts';
import { toRes, type Res } from './helpers.ts';
import { people } from './money-helpers.ts';
import { makePng } from './png.ts';

const PG = process.env.TEST_DATABASE_URL;
const NGINX = nginxBinary();
const required = Boolean(process.env.CI);
const run = promisify(execFile);

it.runIf(required && (!PG || !NGINX))('PostgreSQL and nginx are there (required in CI)', () => {
  expect(PG, 'TEST_DATABASE_URL').toBeTruthy();
  expect(NGINX, 'nginx (installed by .ci/run)').toBeTruthy();
});

describe.runIf(Boolean(PG && NGINX))('two gateways on one PostgreSQL behind nginx', () => {
  // A database of its own (not a schema of the shared test database): the dump below is the README's whole-database one.
  const dbName = `cluster_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'cluster-'));
  const sms = useSmsDouble();
  let url = '';
  let db: Db;
  let gateways: Gateway[] = [];
  let proxy: Proxy;
  let token = '';
  let businessId = '';
  const served: string[] = [];
  const PHONE = '13511112222';

  const call = async (method: string, path: string, o: { body?: unknown; form?: FormData; auth?: boolean } = {}): Promise<Res> => {
    const headers: Record<string, string> = {};
    if (o.auth !== false && token) headers.authorization = `Bearer ${token}`;
    if (businessId) headers['x-company-id'] = businessId;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`http://127.0.0.1:${proxy.port}${path}`, { method, headers, body: o.form ?? (o.body === undefined ? undefined : JSON.stringify(o.body)) });
    served.push(res.headers.get('x-upstream') ?? '');
    return toRes(res);
  };
  // npm run admin in-process (admin-cli.test.ts runs the real command in its own process).
  const admin = async (...args: string[]) => {
    const r = await runAdmin([...args, '--json'], { DATABASE_URL: url, SMS_HTTP_URL: sms.url });
    if (r.code !== 0) throw new Error(`admin ${args[0]}: ${r.err}`);
    return JSON.parse(r.out);
  };
  const until = async <T,>(what: string, fn: () => Promise<T | undefined>, ms = 180_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const uploadRoster = async (list: ReturnType<typeof people>, plan: string) => {
    const csv = ['姓名,身份证号,手机号,工种', ...list.map((r) => `${r.name},${r.idCard},${r.phone},${r.jobType}`)].join('\r\n');
    const form = new FormData();
    form.append('planName', plan);
    form.append('startDate', earliestCoverStart());
    form.append('file', new Blob([csv]), '名单.csv');
    const up = await call('POST', '/api/insure-uploads', { form });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    const id = up.body.data.id as number;
    await until('the parse', async () => ((await call('GET', `/api/insure-uploads/${id}`)).body.data.status === 'ready' ? true : undefined));
    return id;
  };
  const confirmed = (id: number) =>
    until('the confirmation', async () => {
      const s = (await call('GET', `/api/insure-uploads/${id}`)).body.data;
      return s.status === 'confirming' ? undefined : s;
    });

  beforeAll(async () => {
    const admin0 = await openPostgres(PG!);
    await admin0.query(`CREATE DATABASE ${dbName}`);
    await admin0.close();
    const u = new URL(PG!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    // Onboarding on the empty database, from the command line (README: Deployment → Onboarding).
    businessId = (await admin('create-business', '--name', '苏州恒远人力资源有限公司', '--charge-form', 'postpaid', '--tax-no', '91320505MA1XYZ0A2B')).id;
    await admin('add-user', '--phone', PHONE, '--business', businessId, '--role', 'admin');
    await admin('invite', '--phone', PHONE, '--console-url', 'https://console.example.com/');
    // A production database has no plans until the platform puts one on sale.
    await admin('add-plan', '--code', 'emp-60', '--name', '雇主责任险·标准版（60万）', '--unit', 'month', '--price', '20', '--min-age', '16', '--max-age', '65', '--claim-limit', '600000');
    const env = { DATABASE_URL: url, APP_ENV: 'development', SMS_HTTP_URL: sms.url, TRUST_PROXY: 'loopback', CONFIRM_STALE_SECONDS: '3', STATIC_DIR: '' };
    gateways = await Promise.all([startGateway(env), startGateway(env)]);
    proxy = await startNginx(NGINX!, dir, gateways.map((g) => g.port));
    db = await openPostgres(url);
    businessId = '';
  }, 600_000);

  afterAll(async () => {
    await proxy?.stop();
    for (const g of gateways) await g.stop();
    await db?.close();
    const a = await openPostgres(PG!);
    await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each gateway says what it uses: PostgreSQL, files in PostgreSQL, the HTTP SMS provider', () => {
    for (const g of gateways) {
      expect(g.output()).toContain(`Using database: PostgreSQL 127.0.0.1:${new URL(url).port || 5432}/${dbName}`);
      expect(g.output()).toContain('Using files: PostgreSQL (table stored_files)');
      expect(g.output()).toMatch(/Using SMS: HTTP \(http:\/\/127\.0\.0\.1:\d+\)/);
    }
  });

  it('signs in through the proxy with the invitation code, then works with requests alternating between the gateways', async () => {
    const code = sms.requests.find((r) => r.body.phone === PHONE)!.body.code;
    expect((await call('POST', '/api/auth/set-password', { body: { phone: PHONE, code, password: 'cluster123' }, auth: false })).status).toBe(200);
    const login = await call('POST', '/api/auth/login', { body: { phone: PHONE, password: 'cluster123' }, auth: false });
    expect(login.status).toBe(200);
    token = login.body.data.token;
    businessId = login.body.data.businessList[0].businessId;

    // A roster upload: stored file, background parse and confirmation, each step possibly on the other gateway.
    const plan = (await call('GET', '/api/plans?unit=month')).body.data[0].value as string;
    const first = people(20, 910_000);
    const id = await uploadRoster(first, plan);
    expect((await call('POST', '/api/insure-uploads/confirm', { body: { uploadId: id, planName: plan, startDate: earliestCoverStart() } })).status).toBe(202);
    expect(await confirmed(id)).toMatchObject({ status: 'confirmed' });
    const original = await fetch(`http://127.0.0.1:${proxy.port}/api/insure-uploads/${id}/file`, { headers: { authorization: `Bearer ${token}`, 'x-company-id': businessId } });
    expect(original.status).toBe(200);
    expect((await original.text()).startsWith('姓名,身份证号')).toBe(true);

    // A claim with an attachment: the photo goes through one gateway, the claim and the download through others.
    const png = makePng(24, 16);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), '现场.png');
    const att = await call('POST', '/api/claim-attachments', { form });
    expect(att.status, JSON.stringify(att.body)).toBe(200);
    const today = earliestCoverStart();
    const claim = await call('POST', '/api/claims', {
      body: { personName: first[0].name, idCard: first[0].idCard, accidentDate: today, accidentType: '意外伤害', description: '搬运时扭伤', amount: 300, attachmentIds: [att.body.data.id] },
    });
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    for (let i = 0; i < 2; i++) {
      const got = await fetch(`http://127.0.0.1:${proxy.port}/api/claim-attachments/${att.body.data.id}/content`, { headers: { authorization: `Bearer ${token}`, 'x-company-id': businessId } });
      served.push(got.headers.get('x-upstream') ?? '');
      expect(got.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), png)).toBe(0);
    }

    // A payment of an unpaid order (postpaid, the development payment provider).
    const unpaid = (await call('GET', '/api/orders?payStatus=unpaid')).body.data.list[0];
    const paid = await call('POST', `/api/orders/${unpaid.id}/pay`, { body: { channel: 'provider' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const [row] = await db.query<{ pay_status: string }>('SELECT pay_status FROM orders WHERE id = $1', [unpaid.id]);
    expect(row.pay_status).toBe('paid');

    // An export, streamed by whichever gateway gets it.
    const csv = await call('GET', '/api/orders/export?format=csv&columns=orderNo,payStatus');
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain(unpaid.orderNo);

    const ports = new Set(served.filter(Boolean));
    expect(ports.size).toBe(2);
  }, 600_000);

  it('kill -9 of the gateway running a confirmation: the other takes the job over and finishes it, nothing lost or doubled', async () => {
    const plan = (await call('GET', '/api/plans?unit=month')).body.data[0].value as string;
    const list = people(300, 920_000);
    const cards = list.map((r) => r.idCard);
    const id = await uploadRoster(list, plan);
    const [before] = await db.query<{ amount: number; n: number }>(
      `SELECT coalesce(sum(amount_cents), 0)::float8 AS amount, coalesce(sum(order_count), 0)::int AS n FROM statements WHERE business_id = $1`,
      [businessId],
    );
    // The job will wait at the monthly statement, which this test holds: it is in the middle of its transaction.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = db
      .tx(async (tx) => {
        await tx.query('SELECT 1 FROM statements WHERE business_id = $1 FOR UPDATE', [businessId]);
        locked();
        await gate;
      })
      .catch(() => undefined);
    await isLocked;
    const r = await call('POST', '/api/insure-uploads/confirm', { body: { uploadId: id, planName: plan, startDate: earliestCoverStart() } });
    expect(r.status).toBe(202);
    const runner = served.at(-1)!;
    const victim = gateways.find((g) => runner.endsWith(`:${g.port}`))!;
    const survivor = gateways.find((g) => g !== victim)!;
    await until('the job to wait at the statement', async () => {
      const [w] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%statements%'`);
      return w.n > 0 ? true : undefined;
    });
    victim.proc.kill('SIGKILL');
    await new Promise((res) => victim.proc.once('exit', res));
    release();
    await held;

    const s = await confirmed(id);
    expect(s).toMatchObject({ status: 'confirmed', error: null });
    expect(survivor.output()).toContain('taking over a confirmation whose gateway stopped');
    const [persons] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM insured_persons WHERE business_id = $1 AND id_card = ANY($2::text[])', [businessId, cards]);
    const [records] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM insure_records WHERE business_id = $1 AND id_card = ANY($2::text[])', [businessId, cards]);
    expect([persons.n, records.n]).toEqual([300, 300]);
    const orders = await db.query<{ amount: number }>(
      'SELECT amount_cents::float8 AS amount FROM orders WHERE batch_id = (SELECT batch_id FROM insure_uploads WHERE id = $1)',
      [id],
    );
    expect(orders.length).toBe(1);
    const [after] = await db.query<{ amount: number; n: number }>(
      `SELECT sum(amount_cents)::float8 AS amount, sum(order_count)::int AS n FROM statements WHERE business_id = $1`,
      [businessId],
    );
    expect(after.n).toBe(before.n + 1);
    expect(after.amount).toBe(before.amount + orders[0].amount);
    expect((await db.query('SELECT 1 FROM insure_batches WHERE business_id = $1', [businessId])).length).toBe(2);
  }, 600_000);

  it('a backup with pg_dump restores with pg_restore into an empty database: rows, files and the number sequence', async () => {
    const dump = join(dir, 'console.dump');
    // README: Deployment → Backups (the whole database, with its trigram extension).
    await run('pg_dump', ['--format=custom', `--file=${dump}`, url]);
    const target = `console_restore_${process.pid}_${randomBytes(2).toString('hex')}`;
    const a = await openPostgres(PG!);
    await a.query(`CREATE DATABASE ${target}`);
    const restoredUrl = new URL(PG!);
    restoredUrl.pathname = `/${target}`;
    try {
      await run('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump]).catch((e: { stderr?: string }) => {
        throw new Error(`pg_restore failed: ${e.stderr}`);
      });
      const r = await openPostgres(restoredUrl.toString());
      try {
        for (const table of ['orders', 'insured_persons', 'claims', 'claim_attachments', 'stored_files', 'users']) {
          const [x] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
          const [y] = await r.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
          expect(y.n, table).toBe(x.n);
        }
        const [last] = await db.query<{ v: string }>('SELECT last_value::text AS v FROM serial_numbers');
        const [next] = await r.query<{ v: string }>(`SELECT nextval('serial_numbers')::text AS v`);
        expect(BigInt(next.v)).toBe(BigInt(last.v) + 1n);
      } finally {
        await r.close();
      }
    } finally {
      await a.query(`DROP DATABASE IF EXISTS ${target}`);
      await a.close();
    }
  }, 300_000);
});
