import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { maskPhone } from '../util.ts';

export type SmsPurpose = 'reset-password';

/** Sends a one-time code to a phone. A real provider (aliyun, tencent…) implements this interface. */
export interface SmsProvider {
  send(phone: string, code: string, purpose: SmsPurpose): Promise<void>;
  /** Development providers must never run in production. */
  readonly development?: boolean;
}

export interface SmsLogger {
  info(obj: object, msg?: string): void;
}

/**
 * Development provider: no SMS leaves the machine. The code is logged ({ phone: masked, code }) and
 * appended to <DATA_DIR or .data>/sms-dev.log so a developer can read it.
 */
export function devSmsProvider(logFile: string, log?: SmsLogger): SmsProvider {
  return {
    development: true,
    async send(phone, code, purpose) {
      log?.info({ phone: maskPhone(phone), code, purpose }, 'development SMS code (not sent)');
      await mkdir(dirname(logFile), { recursive: true });
      await appendFile(logFile, `${new Date().toISOString()} ${maskPhone(phone)} ${purpose} ${code}\n`);
    },
  };
}

export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.APP_ENV === 'production' || env.NODE_ENV === 'production';
}
