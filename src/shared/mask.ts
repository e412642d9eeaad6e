/** How sensitive values are shown: one implementation for the gateway's API and the console's own display. */

export function maskIdCard(s: string): string {
  if (!s || s.length < 10) return s;
  return `${s.slice(0, 6)}********${s.slice(-4)}`;
}

export function maskAccountNo(s: string): string {
  if (!s || s.length < 8) return s;
  return `${s.slice(0, 4)} **** **** ${s.slice(-4)}`;
}

export function maskPhone(s: string): string {
  return s.length === 11 ? `${s.slice(0, 3)}****${s.slice(-4)}` : s;
}
