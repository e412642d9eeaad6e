import type { Report } from "./lib/report.ts";
export async function runBundle(_r: Report, _o: { repoRoot: string }): Promise<void> {}
