import type { Report } from "./lib/report.ts";
export async function runBrowser(_r: Report, _o: { repoRoot: string }): Promise<void> {}
