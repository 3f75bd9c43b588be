import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT } from './portico';

/** Debian's chromium (no browser download). */
export const CHROMIUM = process.env.PORTICO_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Started through chromium.sh, which merges Playwright's `--disable-features` list with ours: chromium
 * reads only the last such switch.
 */
const LAUNCHER = path.join(REPO_ROOT, 'test/e2e/support/chromium.sh');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The compositor's software GPU runs in the browser process instead of a process of its own: ~10%
  // less CPU per page on the runner.
  '--in-process-gpu',
  // Headless chromium loads the omnibox's popup, two WebUI pages with a renderer each, in every window
  // (one per browser context) although no test can see them: 17% of the browser tests' CPU.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

/**
 * Debian's chromium, launched headless. A browser that dies while starting (seen once in a CI run: a
 * SIGSEGV before its first page, a test file failed without a test run) is started again, twice at
 * most: that says nothing of the app, and every test still runs against a browser that started.
 */
export async function launchChromium(): Promise<Browser> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({
        executablePath: LAUNCHER,
        env: { ...process.env, PORTICO_CHROMIUM_BINARY: CHROMIUM },
        headless: true,
        args: CHROMIUM_ARGS,
      });
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(
        `chromium did not start (attempt ${attempt}), starting it again: ${String(error).split('\n')[0]}`,
      );
    }
  }
}

/**
 * What the web server's Content-Security-Policy blocked in any page of the browser tests (chromium says
 * it on the console): the tests check that it stays empty.
 */
export const policyViolations: string[] = [];

/**
 * PORTICO_E2E_CPU_SLOWDOWN=N runs every page's scripts N times slower (Chromium's CPU throttling), as
 * on a busy CI machine: a test that acts before the screen it waits for is drawn fails at once. The
 * waits for an element are as many times longer (the test time-out is not: run one file at a time).
 */
const CPU_SLOWDOWN = Math.max(1, Number(process.env.PORTICO_E2E_CPU_SLOWDOWN) || 1);

async function slowDown(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

/**
 * A fresh browser profile (cookies, local storage) in English, asking for reduced motion: the app then
 * opens menus, dialogs and toasts without transitions (the tests wait for no animation, and chromium
 * renders no frames of one on the runner's CPU).
 */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
  });
  // Well under the test time-out, so that a failure names the element that never came.
  context.setDefaultTimeout(10_000 * CPU_SLOWDOWN);
  if (CPU_SLOWDOWN > 1) context.on('page', (page) => void slowDown(page));
  return context;
}

export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

/**
 * CI (CI=true, a clean clone whose files nobody opens) encodes no picture unless PORTICO_SCREENSHOTS=1:
 * the suite takes about 200 full-page PNGs, CPU the 2-core runner needs for the tests themselves. The
 * waits before the picture still run, so that what follows a screenshot sees the same settled page.
 */
const SAVE_SCREENSHOTS = process.env.CI !== 'true' || process.env.PORTICO_SCREENSHOTS === '1';

/** Saves a full-page screenshot as test-results/<name>.png for a reviewer to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  // Pictures (avatars, logos) and lazily loaded parts first, when they come quickly.
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await page
    .waitForFunction(() => Array.from(document.images).every((image) => image.complete), undefined, {
      timeout: 3000,
    })
    .catch(() => undefined);
  const file = path.join(RESULTS_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.png`);
  if (SAVE_SCREENSHOTS) await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The page's address, each field's name and value, and the end of its main region's text (menus come first). */
export async function describePage(page: Page): Promise<string> {
  const state = await page
    .evaluate(() => {
      const fields = Array.from(document.querySelectorAll('input, textarea, select')).map((field) => {
        const input = field as HTMLInputElement;
        const label = input.labels?.[0]?.textContent ?? input.getAttribute('aria-label') ?? input.name;
        return `${label}=${JSON.stringify(input.value)}${input.readOnly ? ' (read-only)' : ''}`;
      });
      const main = document.querySelector('main')?.innerText ?? document.body.innerText;
      return { fields: fields.join('; ').slice(0, 1500), main: main.slice(-1500) };
    })
    .catch((error: unknown) => ({ fields: '', main: `(page not readable: ${String(error)})` }));
  return `${page.url()}\nfields: ${state.fields}\nmain:\n${state.main}`;
}

/** What a failed test leaves of one of its pages: a screenshot, and its description on the error output (a CI log keeps it when no picture is saved). */
export async function recordFailedPage(page: Page, name: string): Promise<void> {
  console.error(`Failed page ${name}: ${await describePage(page)}`);
  await screenshot(page, name);
}
