/** Valid mainland ID numbers for test data, with the product's own check character (src/shared/checks.ts). */
import { idCardCheckChar } from '../src/shared/checks';

/** An 18-character ID: region (6 digits), birth date (yyyymmdd), a 3-digit sequence and the ISO 7064 check. */
export function makeIdCard(region: string, birth: string, seq: number): string {
  const first17 = `${region}${birth}${String(seq).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/** An ID from region 310104 (Shanghai, Xuhui), the one the browser tests use. */
export const idCard = (birth: string, seq: number): string => makeIdCard('310104', birth, seq);
