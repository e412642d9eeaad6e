import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The features playwright-core turns off itself (its chromiumSwitches, at the pinned version): Chromium
 * reads only the last --disable-features of its command line, so CHROMIUM_ARGS's list repeats them.
 * The global setup checks at launch that it still does (featuresDropped).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 preloads the address bar's two popups (chrome://omnibox-popup.top-chrome/ and its AI-mode
 * page) as a WebUI renderer for every window, so for every browser context, although headless shows no
 * address bar: about 1.8 core-seconds each (6 contexts: 10.9 core-seconds in those renderers, 3.2 in the
 * pages' own).
 */
const UNSHOWN_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Flags for headless Chromium on a closed network (no background fetches) and as root (no sandbox). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSHOWN_FEATURES].join(',')}`,
];

/**
 * The --disable-features Playwright put first on a launched Chromium's command line that the last one
 * (CHROMIUM_ARGS's, the one Chromium reads) leaves out: empty while PLAYWRIGHT_DISABLED_FEATURES is current.
 */
export function featuresDropped(commandLine: string[]): string[] {
  const lists = commandLine.filter((a) => a.startsWith('--disable-features=')).map((a) => a.slice('--disable-features='.length).split(','));
  if (lists.length < 2) return [];
  const kept = new Set(lists.at(-1));
  return lists.slice(0, -1).flat().filter((f) => f && !kept.has(f));
}

/** Installs Debian's chromium with apt-get when it is missing (the e2e suite needs a real browser). */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = asRoot ? '' : 'sudo ';
  console.log(`[e2e] ${CHROMIUM_PATH} missing: installing Debian package chromium with apt-get`);
  execSync(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq chromium`, {
    stdio: 'inherit',
    timeout: 15 * 60 * 1000,
  });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get finished but ${CHROMIUM_PATH} is still missing`);
}
