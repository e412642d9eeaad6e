/**
 * The first list page and a detail (bench/firstpage.ts) of several builds side by side, in one session,
 * runs interleaved (A, B, A, B …) so the machine's load falls on all of them alike:
 *
 *   tsx bench/firstpage-compare.ts [--runs 5] [--rates 1,4] [--trace <dir>] [--profile <dir>] [--cpu] new=. old=/tmp/base
 *
 * Each checkout needs a built dist/ (npx vite build) and node_modules; its own gateway (its
 * src/server/server.ts, PGlite in memory, demo data) serves it. `git worktree add /tmp/base <commit>`
 * plus a symlink to this checkout's node_modules makes an older console to compare with.
 * --trace writes a Chromium performance trace per build and rate (open it in DevTools' Performance panel);
 * --profile writes a V8 CPU profile (.cpuprofile) of the two navigations per build and rate.
 * --cpu traces every run and adds the list navigation's main-thread CPU time (bench/lib/trace.ts), the
 * figure that varies least between runs of one build on a shared machine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { startGateway, type Gateway } from './lib/gateway.ts';
import { launchChromium, openSignIn, submitSignIn } from './lib/chromium.ts';
import { settle } from './lib/settle.ts';
import { summarize } from './lib/stats.ts';
import { measureFirstPage, type FirstPageRun } from './firstpage.ts';
import { navigationCpu } from './lib/trace.ts';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    rates: { type: 'string', default: '1,4' },
    trace: { type: 'string' },
    profile: { type: 'string' },
    cpu: { type: 'boolean', default: false },
  },
});
const builds = positionals.map((p) => {
  const [label, dir] = p.includes('=') ? p.split('=') : [p, p];
  return { label, root: resolve(dir) };
});
if (!builds.length) throw new Error('usage: tsx bench/firstpage-compare.ts label=/checkout …');
const runs = Number(flags.runs);
const rates = flags.rates!.split(',').map(Number);

interface Live {
  label: string;
  gw: Gateway;
  state: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>;
  results: Map<number, FirstPageRun[]>;
  cpu: Map<number, number[]>;
}
const cpuDir = flags.cpu ? mkdtempSync(join(tmpdir(), 'firstpage-cpu-')) : undefined;

async function signedIn(browser: Browser, origin: string) {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await openSignIn(page, origin);
  await submitSignIn(page);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const state = await ctx.storageState();
  await ctx.close();
  return state;
}

const browser = await launchChromium();
const live: Live[] = [];
try {
  for (const b of builds) {
    const gw = await startGateway({ driver: 'pglite', dataDir: 'memory' }, { staticDir: join(b.root, 'dist'), serverModule: join(b.root, 'src/server/server.ts') });
    live.push({ label: b.label, gw, state: await signedIn(browser, gw.origin), results: new Map(), cpu: new Map() });
  }
  for (const rate of rates) {
    for (let i = 0; i < runs; i++) {
      for (const l of live) {
        const q = await settle({ maxMs: 15_000 });
        const first = i === 0;
        const tag = `${l.label}-${rate}x`;
        let profiler: import('playwright-core').CDPSession | undefined;
        // The first run's trace is kept (--trace); the others are read for --cpu, then deleted.
        const keptTrace = first && !!flags.trace;
        const tracePath = keptTrace ? (mkdirSync(flags.trace!, { recursive: true }), join(flags.trace!, `${tag}.json`)) : cpuDir ? join(cpuDir, `${tag}.json`) : undefined;
        const r = await measureFirstPage(browser, l.gw.origin, l.state, {
          rate,
          tracePath,
          before:
            first && flags.profile
              ? async (page) => {
                  profiler = await page.context().newCDPSession(page);
                  await profiler.send('Profiler.enable');
                  await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
                  await profiler.send('Profiler.start');
                }
              : undefined,
          after:
            first && flags.profile
              ? async () => {
                  const { profile } = await profiler!.send('Profiler.stop');
                  mkdirSync(flags.profile!, { recursive: true });
                  writeFileSync(join(flags.profile!, `${tag}.cpuprofile`), JSON.stringify(profile));
                }
              : undefined,
        });
        (l.results.get(rate) ?? l.results.set(rate, []).get(rate)!).push(r);
        const f = (n: number) => Math.round(n);
        let cpuNote = '';
        if (flags.cpu && tracePath) {
          const c = navigationCpu(tracePath);
          if (!keptTrace) rmSync(tracePath);
          (l.cpu.get(rate) ?? l.cpu.set(rate, []).get(rate)!).push(c.cpu);
          cpuNote = `; main-thread CPU ${f(c.cpu)} ms`;
        }
        console.log(
          `${tag} run ${i + 1} (idle ${Math.round(q.idle * 100)} %): list shown ${f(r.list.shown)} interactive ${f(r.list.interactive)} ms ` +
            `(long tasks ${r.list.longTasks.count}/${f(r.list.longTasks.total)} ms, longest ${f(r.list.longTasks.longest)}; ${r.list.scripts} scripts ${f(r.list.scriptBytes / 1000)} kB; ` +
            `${r.list.domNodes} elements, ${r.list.styleTags} <style>${cpuNote}) · detail shown ${f(r.detail.shown)} interactive ${f(r.detail.interactive)} ms`,
        );
      }
    }
  }
  console.log('\nmedian [min–max] over runs');
  for (const rate of rates) {
    for (const l of live) {
      const rs = l.results.get(rate) ?? [];
      const m = (xs: number[]) => {
        const s = summarize(xs);
        return `${Math.round(s.p50)} [${Math.round(Math.min(...xs))}–${Math.round(s.max)}]`;
      };
      console.log(
        `${l.label} ${rate}x: list shown ${m(rs.map((r) => r.list.shown))}, interactive ${m(rs.map((r) => r.list.interactive))} ms; ` +
          `detail shown ${m(rs.map((r) => r.detail.shown))}, interactive ${m(rs.map((r) => r.detail.interactive))} ms; ` +
          `list long tasks ${m(rs.map((r) => r.list.longTasks.total))} ms; ${flags.cpu ? `main-thread CPU ${m(l.cpu.get(rate) ?? [])} ms; ` : ''}${rs[0]?.list.domNodes} elements, ${rs[0]?.list.styleTags} <style>, ` +
          `${rs[0]?.list.scripts} scripts ${Math.round((rs[0]?.list.scriptBytes ?? 0) / 1000)} kB (${rs[0]?.listPath})`,
      );
    }
  }
} finally {
  if (cpuDir) rmSync(cpuDir, { recursive: true, force: true });
  await browser.close();
  for (const l of live) await l.gw.close();
}
