import { afterEach, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeToast, seriousA11yViolations, settle, signInOnPage } from './app';
import { newContext, policyViolations, recordFailedPage, screenshot } from './browser';
import type { Portico } from './portico';

/** Calls of the management API with a bearer token; throws on a refusal (to prepare and check data). */
export function managementCalls(portico: Portico, token: () => string) {
  return async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${portico.apiUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token()}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** Switches the web app's language (stored preference) and reloads the page. */
export async function inLanguage(page: Page, language: string): Promise<void> {
  await page.evaluate((lang) => localStorage.setItem('portico.language', JSON.stringify(lang)), language);
  await page.reload();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language, { timeout: 30_000 });
  await settle(page);
}

/** A page of the web app signed in as the admin; the page's script errors are collected in `errors`. */
export async function adminPage(browser: Browser, portico: Portico, errors: string[]): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${portico.webUrl}/login`);
  await signInOnPage(page, 'admin', 'admin');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return page;
}

/**
 * After each test of the file: no content-security-policy violation and no script error on the page,
 * and a screenshot named `failed-<name>-<test>` of a failed test.
 */
export function checkPageAfterEach(page: () => Page, errors: string[], name: string): void {
  afterEach(() => {
    expect(policyViolations.splice(0)).toEqual([]);
    expect(errors.splice(0)).toEqual([]);
  });
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      await recordFailedPage(page(), `failed-${name}-${test.task.name.slice(0, 40)}`).catch(() => undefined);
  });
}

/** What settings screen tests do on the page: open a settings screen, wait for a toast, look at it. */
export function settingsScreen(page: () => Page, portico: () => Portico) {
  return {
    main: () => page().getByRole('main'),
    open: async (path: string) => {
      await page().goto(`${portico().webUrl}/management/settings/${path}`);
      await settle(page());
    },
    /**
     * Waits for the address, then for the new screen's heading: a link changes the address before
     * the screen is drawn, and until then the previous screen's fields take what is typed.
     */
    shown: async (url: RegExp, heading: string) => {
      await page().waitForURL(url);
      await page().getByRole('main').getByRole('heading', { name: heading, exact: true }).waitFor();
    },
    /** Waits for the toast, then closes it: a toast under the pointer outlives its 3 s, and the next wait for the same words would see it. */
    toast: (text: string) => closeToast(page(), text),
    /** No serious accessibility violation, and a screenshot. */
    looked: async (name: string) => {
      await settle(page());
      expect(await seriousA11yViolations(page())).toEqual([]);
      await screenshot(page(), name);
    },
  };
}

/** Creates APIs by name and context path through the management API; their IDs by name. */
export async function createApis(
  call: ReturnType<typeof managementCalls>,
  apis: readonly (readonly [name: string, path: string])[],
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [name, path] of apis) {
    ids[name] = (
      await call<{ id: string }>('POST', 'apis', {
        name,
        version: '1.0',
        description: `The ${name} API`,
        context_path: path,
        endpoint: 'http://localhost:9/backend',
      })
    ).id;
  }
  return ids;
}
