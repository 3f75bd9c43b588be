import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signInOnPage } from './app';
import { launchChromium, newContext, policyViolations, recordFailedPage } from './browser';
import type { MailSink } from './mail-sink';
import { startMailSink } from './mail-sink';
import type { Portico } from './portico';
import { adminToken, startPortico } from './portico';

/** What a console suite runs against: `portico start` with a mail sink, a browser, an administrator token. */
export interface ConsoleWorld {
  portico: Portico;
  sink: MailSink;
  browser: Browser;
  token: string;
}

/**
 * The shared setup of the console's plans and subscriptions suites; call it inside `describe`. Starts
 * Portico and a browser before the suite and stops them after; after each test checks that the
 * Content-Security-Policy blocked nothing, and leaves a picture of each page of a failed test.
 */
export function consoleSuite(options: { env?: Record<string, string> } = {}) {
  const world = {} as ConsoleWorld;
  const contexts: BrowserContext[] = [];

  /** A call of the management API as the administrator (to prepare data and check what was stored). */
  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${world.portico.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${world.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const createApi = (name: string, contextPath: string) =>
    api<{ id: string }>('POST', 'apis', {
      name,
      version: '1.0',
      description: `${name} of the shop`,
      context_path: contextPath,
      endpoint: 'http://localhost:9/backend',
    });

  const publishedPlan = (apiId: string, name: string) =>
    api<{ id: string }>('POST', `apis/${apiId}/plans`, {
      name,
      description: `The ${name} plan`,
      security: 'API_KEY',
      status: 'PUBLISHED',
      characteristics: [`${name} support`],
    });

  beforeAll(async () => {
    world.sink = await startMailSink();
    [world.portico, world.browser] = await Promise.all([
      startPortico({ smtpUrl: world.sink.url, env: options.env }),
      launchChromium(),
    ]);
    world.token = await adminToken(world.portico);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await world.browser?.close();
    await world.portico?.stop();
  });

  // A failed test leaves a picture of each of its pages.
  // The web server's Content-Security-Policy blocks nothing the app does.
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
  });

  afterEach(async (test) => {
    if (test.task.result?.state !== 'fail') return;
    const pages = contexts.flatMap((c) => c.pages());
    await Promise.all(
      pages.map((p, i) =>
        recordFailedPage(p, `failed-${test.task.name.slice(0, 40)}-${i}`).catch(() => undefined),
      ),
    );
  });

  /** A signed-in administrator on `path`. */
  async function adminOn(path: string): Promise<Page> {
    const context = await newContext(world.browser);
    contexts.push(context);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.portico.webUrl });
    const page = await context.newPage();
    await page.goto(`${world.portico.webUrl}/login?redirectUri=${encodeURIComponent(path)}`);
    await signInOnPage(page, 'admin', 'admin');
    await page.waitForURL(`${world.portico.webUrl}${path}`);
    return page;
  }

  const toast = (page: Page, text: string | RegExp) =>
    page.getByRole('alert').filter({ hasText: text }).first();
  const main = (page: Page) => page.getByRole('main');
  const dialog = (page: Page) => page.getByRole('dialog');

  /** Sets the language (remembered by the app) and reloads the page. */
  async function inLanguage(page: Page, language: string): Promise<void> {
    await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
    await page.reload();
    await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
  }

  return { world, api, createApi, publishedPlan, adminOn, toast, main, dialog, inLanguage };
}
