import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { maskPhone } from '../util.ts';

/** reset-password: a code the user asked for (忘记密码); set-password: an operator's invitation to a new user. */
export type SmsPurpose = 'reset-password' | 'set-password';

/** What a message says besides the code. */
export interface SmsDetails {
  /** How long the code is valid, in minutes. */
  validMinutes: number;
  /** set-password: the business the user was added to, and the console's address when known. */
  businessName?: string;
  consoleUrl?: string;
}

/** Sends a one-time code to a phone. Implemented by the HTTP provider (production) and the development log. */
export interface SmsProvider {
  send(phone: string, code: string, purpose: SmsPurpose, details: SmsDetails): Promise<void>;
  /** Development providers must never run in production. */
  readonly development?: boolean;
  /** Said at start-up: which provider the gateway uses. */
  readonly description?: string;
}

export interface SmsLogger {
  info(obj: object, msg?: string): void;
}

/** The Chinese text of a message (the HTTP provider sends it along with the code). */
export function smsText(code: string, purpose: SmsPurpose, d: SmsDetails, sign = '保险服务企业版'): string {
  if (purpose === 'set-password') {
    const where = d.consoleUrl ? `请打开 ${d.consoleUrl} ，` : '请打开企业控制台登录页，';
    return `【${sign}】您已被添加为「${d.businessName ?? '企业'}」的用户。${where}点击「忘记密码」，用验证码 ${code} 设置密码，${d.validMinutes / 60} 小时内有效。`;
  }
  return `【${sign}】您的验证码为 ${code}，用于重设密码，${d.validMinutes} 分钟内有效。如非本人操作，请忽略本短信。`;
}

/**
 * Development provider: no SMS leaves the machine. The code is logged ({ phone: masked, code }) and,
 * unless the gateway keeps nothing on disk, appended to a log file a developer can read.
 */
export function devSmsProvider(logFile: string | null, log?: SmsLogger): SmsProvider {
  return {
    development: true,
    description: `development log (not sent${logFile ? `; codes in ${logFile}` : '; codes in the gateway log'})`,
    async send(phone, code, purpose) {
      log?.info({ phone: maskPhone(phone), code, purpose }, 'development SMS code (not sent)');
      if (!logFile) return;
      await mkdir(dirname(logFile), { recursive: true });
      await appendFile(logFile, `${new Date().toISOString()} ${maskPhone(phone)} ${purpose} ${code}\n`);
    },
  };
}

export interface HttpSmsOptions {
  /** Where messages are POSTed (the SMS vendor's API or the operator's own relay). */
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** The signature in 【】 at the start of every text. */
  sign?: string;
  timeoutMs?: number;
}

/**
 * Production provider: POSTs JSON `{ phone, purpose, code, text }` to SMS_HTTP_URL (with the bearer
 * token SMS_HTTP_TOKEN) and counts any 2xx answer as sent; anything else, or no answer within the
 * timeout, is a failure the caller reports as 短信服务暂不可用 (and the code is not kept).
 */
export function httpSmsProvider(opts: HttpSmsOptions): SmsProvider {
  const origin = new URL(opts.url).origin;
  return {
    description: `HTTP (${origin})`,
    async send(phone, code, purpose, details) {
      const res = await fetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
        body: JSON.stringify({ phone, purpose, code, text: smsText(code, purpose, details, opts.sign) }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`SMS provider answered ${res.status}`);
    },
  };
}

/** The HTTP provider configured by SMS_HTTP_URL, SMS_HTTP_TOKEN and SMS_SIGN, or null when none is. */
export function smsProviderFromEnv(env: NodeJS.ProcessEnv = process.env): SmsProvider | null {
  if (!env.SMS_HTTP_URL) return null;
  try {
    new URL(env.SMS_HTTP_URL);
  } catch {
    throw new Error(`SMS_HTTP_URL must be an absolute URL such as https://sms.example.com/send, got "${env.SMS_HTTP_URL}"`);
  }
  return httpSmsProvider({ url: env.SMS_HTTP_URL, token: env.SMS_HTTP_TOKEN || undefined, sign: env.SMS_SIGN || undefined });
}
