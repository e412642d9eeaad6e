import type { Db } from './db.ts';
import { hashPassword, idCardCheckChar, isoDate, mulberry32 } from './util.ts';
import { serialNo } from './entity/serial.ts';

export const DEMO_PHONE = '13800000000';
export const DEMO_PASSWORD = 'demo1234';

/**
 * The demo plans (rows of the plan entity, schemas/entities/plan.json; demo data like the rest: a
 * production database gets its plans from the platform's operations). Premium in cents per person and
 * month (roster plans) or day (the day plan); ages inclusive; claim limit per person and cover period.
 */
export const DEMO_PLANS: ReadonlyArray<{ code: string; name: string; unit: 'month' | 'day'; cents: number; minAge: number; maxAge: number; claimLimitCents: number }> = [
  { code: 'employer-std-60w', name: '雇主责任险·标准版（60万）', unit: 'month', cents: 4500, minAge: 16, maxAge: 65, claimLimitCents: 600_000_00 },
  { code: 'group-accident-30w', name: '团体意外险·基础版（30万）', unit: 'month', cents: 2800, minAge: 16, maxAge: 65, claimLimitCents: 300_000_00 },
  { code: 'rider-accident-80w', name: '骑手意外险·升级版（80万）', unit: 'month', cents: 6200, minAge: 18, maxAge: 65, claimLimitCents: 800_000_00 },
  { code: 'flex-day', name: '灵活用工日单险（按天）', unit: 'day', cents: 350, minAge: 18, maxAge: 60, claimLimitCents: 200_000_00 },
];
const PLANS = Object.fromEntries(DEMO_PLANS.map((p) => [p.name, p]));

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘'.split('');
const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华建国志红玉兰海燕晓东俊峰雪梅文博思远子涵浩然欣怡宇航'.split('');
const REGIONS = ['110101', '310104', '330106', '440305', '510107', '420106', '320102', '370102', '410105', '430104'];
const JOBS = ['快递员', '仓库分拣员', '外卖骑手', '保洁员', '装卸工', '安保员', '厨师', '司机'];
/** Values of the claim entity's accidentType options (schemas/entities/claim.json), one per description below. */
const ACCIDENTS = ['意外伤害', '意外伤害', '意外伤残', '意外伤害', '突发疾病'];
const ACCIDENT_DESC = [
  '搬运货物时扭伤腰部，已就近就医。',
  '配送途中与电动车发生碰撞，左腿擦伤。',
  '仓库地面湿滑摔倒，右手腕骨折。',
  '厨房操作时被热油烫伤手臂。',
  '夜班期间突发不适，送医观察。',
];

interface BizSpec {
  id: string;
  name: string;
  chargeForm: 'prepaid' | 'postpaid';
  packs: string[];
  balanceCents: number;
  taxNo: string;
  persons: number;
  orders: number;
  batches: number;
  invoices: number;
  refunds: number;
  claims: number;
  banks: { accountName: string; bankName: string; accountNo: string; branch: string; isDefault: boolean }[];
}

const BUSINESSES: BizSpec[] = [
  {
    id: 'B10001',
    name: '上海鑫达人力资源有限公司',
    chargeForm: 'prepaid',
    packs: ['attendance'],
    balanceCents: 12856000,
    taxNo: '91310104MA1FL2XK3P',
    persons: 60,
    orders: 40,
    batches: 8,
    invoices: 12,
    refunds: 4,
    claims: 10,
    banks: [
      { accountName: '上海鑫达人力资源有限公司', bankName: '招商银行', accountNo: '6214830212345678', branch: '上海徐汇支行', isDefault: true },
      { accountName: '上海鑫达人力资源有限公司', bankName: '中国工商银行', accountNo: '6222021001122334455', branch: '上海漕河泾支行', isDefault: false },
    ],
  },
  {
    id: 'B10002',
    name: '杭州云帆物流有限公司',
    chargeForm: 'postpaid',
    packs: [],
    balanceCents: 0,
    taxNo: '91330106MA2CD7YQ8L',
    persons: 20,
    orders: 12,
    batches: 3,
    invoices: 4,
    refunds: 1,
    claims: 3,
    banks: [
      { accountName: '杭州云帆物流有限公司', bankName: '中国建设银行', accountNo: '6217001540009876543', branch: '杭州西湖支行', isDefault: true },
    ],
  },
  {
    id: 'B10003',
    name: '北京恒通家政服务有限公司',
    chargeForm: 'prepaid',
    packs: ['attendance'],
    balanceCents: 500000,
    taxNo: '91110101MA01ABCD2E',
    persons: 5,
    orders: 3,
    batches: 1,
    invoices: 1,
    refunds: 0,
    claims: 1,
    banks: [
      { accountName: '北京恒通家政服务有限公司', bankName: '中国银行', accountNo: '6216610100001234567', branch: '北京东城支行', isDefault: true },
    ],
  },
];

/**
 * Automatic-insurance status of the n-th demo person (docs/auto-insure.md), consistent with their
 * information: 信息待完善 persons lack a phone or a job type, 投保信息有误 ones are 62–63, inside their
 * roster plan's ages but above the day plan's 60 (automatic insurance buys the day plan).
 */
function demoAutoStatus(n: number): { status: string; noPhone?: boolean; noJob?: boolean; oldAge?: boolean } {
  switch (n % 12) {
    case 1:
      return { status: '0', noPhone: true };
    case 4:
      return { status: '0', noJob: true };
    case 7:
      return { status: '2' };
    case 10:
      return { status: '3', oldAge: true };
    default:
      return { status: '1' };
  }
}

/** A valid ID number of someone born on 15 March 63 years before `year` (62 or 63 that year), unique per n. */
function oldIdCard(n: number, year: number): string {
  const first17 = `110101${year - 63}0315${String(n % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

const DAY = 86400000;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const ymd = (d: Date) => isoDate(d).replace(/-/g, '');

/** Seeds deterministic demo data when the users table is empty. Returns true when it seeded. */
export async function seed(db: Db, opts: { now?: Date } = {}): Promise<boolean> {
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if (n > 0) return false;
  const rand = mulberry32(20240601);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T,>(arr: readonly T[]): T => arr[Math.floor(rand() * arr.length)];
  const saltOf = () => pad(int(0, 0xffffff), 8) + pad(int(0, 0xffffff), 8);
  // Anchor dates to the start of the current day so the data looks fresh but is stable within a day.
  const now = opts.now ?? new Date();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const daysAgo = (d: number, hour = 9) => new Date(today.getTime() - d * DAY + hour * 3600000 + int(0, 3599) * 1000);

  const usedIds = new Set<string>();
  const idCard = () => {
    for (;;) {
      const birth = new Date(Date.UTC(int(1968, 2003), int(0, 11), int(1, 28)));
      const first17 = pick(REGIONS) + ymd(birth) + pad(int(1, 999), 3);
      const id = first17 + idCardCheckChar(first17);
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };
  const personName = () => pick(SURNAMES) + pick(GIVEN) + (rand() < 0.6 ? pick(GIVEN) : '');
  const mobile = () => `1${pick(['3', '5', '7', '8', '9'])}${pad(int(0, 999999999), 9)}`;
  const rosterPlans = Object.keys(PLANS).filter((p) => PLANS[p].unit === 'month');
  const autoStatuses: { biz: string; idCard: string; status: string }[] = [];

  await db.tx(async (tx) => {
    for (const p of DEMO_PLANS) {
      await tx.query(
        `INSERT INTO plans (code, name, unit, price_cents, min_age, max_age, claim_limit_cents) VALUES ($1,$2,$3,$4,$5,$6,$7)
         ON CONFLICT (code) DO NOTHING`,
        [p.code, p.name, p.unit, p.cents, p.minAge, p.maxAge, p.claimLimitCents],
      );
    }
    const demo = await tx.query<{ id: number }>(
      'INSERT INTO users (phone, password_hash, is_demo) VALUES ($1, $2, true) RETURNING id',
      [DEMO_PHONE, hashPassword(DEMO_PASSWORD, saltOf())],
    );
    const other = await tx.query<{ id: number }>(
      'INSERT INTO users (phone, password_hash, is_demo) VALUES ($1, $2, true) RETURNING id',
      ['13900000001', hashPassword(DEMO_PASSWORD, saltOf())],
    );
    for (const [bi, biz] of BUSINESSES.entries()) {
      await tx.query(
        'INSERT INTO businesses (id, name, charge_form, service_packs, balance_cents, tax_no) VALUES ($1,$2,$3,$4,$5,$6)',
        [biz.id, biz.name, biz.chargeForm, biz.packs, biz.balanceCents, biz.taxNo],
      );
      if (bi < 2) {
        await tx.query('INSERT INTO user_businesses (user_id, business_id, user_type) VALUES ($1,$2,$3)', [
          demo[0].id,
          biz.id,
          bi === 0 ? 'admin' : 'operator',
        ]);
      } else {
        await tx.query('INSERT INTO user_businesses (user_id, business_id, user_type) VALUES ($1,$2,$3)', [
          other[0].id,
          biz.id,
          'admin',
        ]);
      }

      // Batches with their persons and records.
      const persons: { name: string; idCard: string }[] = [];
      const perBatch = Math.ceil(biz.persons / biz.batches);
      let made = 0;
      for (let b = 0; b < biz.batches; b++) {
        const created = daysAgo(int(3, 20) + (biz.batches - b) * 9, 10);
        const batchNo = await serialNo(tx, 'PB', created);
        const attendance = biz.packs.includes('attendance') && b % 4 === 3;
        const source = attendance ? 'attendance' : 'roster';
        const count = Math.min(perBatch, biz.persons - made);
        const failed = b % 5 === 2 ? 1 : 0;
        const batch = await tx.query<{ id: number }>(
          `INSERT INTO insure_batches (business_id, batch_no, source, file_name, total, succeeded, failed, status, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING id`,
          [
            biz.id,
            batchNo,
            source,
            attendance ? `考勤表_${isoDate(created)}.xlsx` : `参保名单_${isoDate(created)}.xlsx`,
            count + failed,
            count,
            failed,
            failed ? 'partially_failed' : 'done',
            created.toISOString(),
          ],
        );
        const plan = attendance ? '灵活用工日单险（按天）' : pick(rosterPlans);
        for (let i = 0; i < count; i++, made++) {
          const name = personName();
          const auto = demoAutoStatus(made);
          // A person in 投保信息有误 is outside the day plan's ages (62–63); the draw keeps the sequence.
          const drawn = idCard();
          const card = auto.oldAge ? oldIdCard(made, today.getUTCFullYear()) : drawn;
          persons.push({ name, idCard: card });
          autoStatuses.push({ biz: biz.id, idCard: card, status: auto.status });
          const start = new Date(created.getTime() + DAY);
          const end = attendance ? start : new Date(start.getTime() + 364 * DAY);
          const ended = end.getTime() < today.getTime();
          const pending = !ended && start.getTime() > today.getTime();
          const status = ended ? 'ended' : pending ? 'pending' : made % 13 === 5 ? 'pending' : 'insured';
          // Drawn even when left blank, so the rest of the demo data stays the same.
          const phone = mobile();
          const job = pick(JOBS);
          await tx.query(
            `INSERT INTO insured_persons (business_id, name, id_card, phone, job_type, plan_name, status, start_date, end_date, created_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
            [biz.id, name, card, auto.noPhone ? '' : phone, auto.noJob ? '' : job, plan, status, isoDate(start), isoDate(end), created.toISOString()],
          );
          const recStatus = ended ? 'expired' : status === 'pending' ? 'pending' : made % 17 === 9 ? 'cancelled' : 'effective';
          await tx.query(
            `INSERT INTO insure_records (business_id, batch_id, batch_no, person_name, id_card, plan_name, premium_cents, status, effective_date, expiry_date, created_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
            [biz.id, batch[0].id, batchNo, name, card, plan, PLANS[plan].cents * (attendance ? 1 : 12), recStatus, isoDate(start), isoDate(end), created.toISOString()],
          );
        }
      }

      // Orders.
      const orderNos: string[] = [];
      for (let i = 0; i < biz.orders; i++) {
        // Spread over the last 12 months (the workbench charts them); the first few fall in this month.
        const drawn = i < 5 ? daysAgo(int(0, today.getUTCDate() - 1), int(1, 9)) : daysAgo(int(0, 330), int(1, 9));
        const created = new Date(Math.min(drawn.getTime(), now.getTime() - 60_000));
        const orderNo = await serialNo(tx, 'OD', created);
        const plan = pick(Object.keys(PLANS));
        const people = int(1, 30);
        // The premium rule of src/server/domain/insure.ts: month plans are bought for 12 months, day plans per day.
        const amount = PLANS[plan].cents * people * (PLANS[plan].unit === 'day' ? int(1, 5) : 12);
        const r = rand();
        const payStatus = i < 3 ? 'unpaid' : r < 0.82 ? 'paid' : r < 0.92 ? 'unpaid' : 'refunded';
        const orderStatus = payStatus === 'paid' ? 'completed' : payStatus === 'unpaid' ? 'pending_payment' : 'closed';
        const paidAt = payStatus === 'unpaid' ? null : new Date(created.getTime() + int(60, 7200) * 1000).toISOString();
        await tx.query(
          `INSERT INTO orders (business_id, order_no, product_name, person_count, amount_cents, pay_status, order_status, created_at, paid_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
          [biz.id, orderNo, plan, people, amount, payStatus, orderStatus, created.toISOString(), paidAt],
        );
        if (payStatus === 'paid') orderNos.push(orderNo);
      }

      // Invoices over paid orders (each order used at most once).
      const invoiceNos: { no: string; cents: number }[] = [];
      const statuses = ['issued', 'issued', 'applying', 'issued', 'rejected', 'red'] as const;
      for (let i = 0; i < biz.invoices && orderNos.length > 0; i++) {
        const nos = orderNos.splice(0, Math.min(orderNos.length, int(1, 3)));
        const rows = await tx.query<{ c: number }>(
          'SELECT coalesce(sum(amount_cents),0)::float8 AS c FROM orders WHERE order_no = ANY($1)',
          [nos],
        );
        const created = daysAgo(int(0, 60), int(9, 17));
        const invoiceNo = await serialNo(tx, 'FP', created);
        const status = statuses[i % statuses.length];
        await tx.query(
          `INSERT INTO invoices (business_id, invoice_no, title, tax_no, amount_cents, type, status, email, order_nos, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
          [biz.id, invoiceNo, biz.name, biz.taxNo, rows[0].c, i % 3 === 0 ? 'special' : 'normal', status, `finance${bi + 1}@example.com`, nos, created.toISOString()],
        );
        if (status === 'issued') invoiceNos.push({ no: invoiceNo, cents: rows[0].c });
      }
      const reasons = ['开票信息有误，需重新开具', '订单部分退保', '抬头填写错误', '重复开票'];
      const refundStatuses = ['done', 'applying', 'approved', 'rejected'] as const;
      for (let i = 0; i < biz.refunds && i < invoiceNos.length; i++) {
        const created = daysAgo(int(0, 30), int(9, 17));
        await tx.query(
          `INSERT INTO invoice_refunds (business_id, refund_no, invoice_no, amount_cents, reason, status, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7)`,
          [biz.id, await serialNo(tx, 'TP', created), invoiceNos[i].no, invoiceNos[i].cents, reasons[i % reasons.length], refundStatuses[i % refundStatuses.length], created.toISOString()],
        );
      }

      const claimStatuses = ['reported', 'reviewing', 'paid', 'paid', 'rejected'] as const;
      for (let i = 0; i < biz.claims; i++) {
        const p = persons[int(0, persons.length - 1)];
        const accident = daysAgo(int(2, 90));
        const created = new Date(accident.getTime() + int(0, 3) * DAY);
        const k = int(0, ACCIDENTS.length - 1);
        await tx.query(
          `INSERT INTO claims (business_id, claim_no, person_name, id_card, accident_date, accident_type, description, amount_cents, status, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
          [biz.id, await serialNo(tx, 'LP', created), p.name, p.idCard, isoDate(accident), ACCIDENTS[k], ACCIDENT_DESC[k], int(5, 800) * 1000, claimStatuses[i % claimStatuses.length], created.toISOString()],
        );
      }

      for (const [k, acct] of biz.banks.entries()) {
        await tx.query(
          `INSERT INTO bank_accounts (business_id, account_name, bank_name, account_no, branch, is_default, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7)`,
          [biz.id, acct.accountName, acct.bankName, acct.accountNo, acct.branch, acct.isDefault, daysAgo(200 - k * 30).toISOString()],
        );
      }
    }
    // Automatic-insurance statuses, when the entity column exists (a database migrated only with the base
    // tables gets them from the start-up backfill instead).
    const [col] = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'insured_persons' AND column_name = 'auto_status'`,
    );
    if (col.n > 0) {
      await tx.query(
        `UPDATE insured_persons p SET auto_status = u.s FROM unnest($1::text[], $2::text[], $3::text[]) AS u(b, c, s)
          WHERE p.business_id = u.b AND p.id_card = u.c`,
        [autoStatuses.map((a) => a.biz), autoStatuses.map((a) => a.idCard), autoStatuses.map((a) => a.status)],
      );
    }
  });
  return true;
}
